"""Recognise tiles in a photo and rebuild the hand from them."""
