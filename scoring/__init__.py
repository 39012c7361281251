"""Score a finished mahjong hand under the table's regional rules."""
