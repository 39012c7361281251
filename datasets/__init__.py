"""Training and evaluation data: real photos from ../shared and synthetic hand scenes."""
