"""mjcam: photograph a revealed mahjong hand, get the score under the table's regional rules."""
__version__ = "0.1.0"
