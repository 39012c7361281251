"""Classifier crops: the same square crop of a tile at training and at run time."""
import numpy as np

from vision.crops import CROP_SIZE, crops_batch, tile_crop


def striped_image() -> np.ndarray:
    image = np.zeros((200, 300, 3), np.uint8)
    image[:, :150] = (0, 0, 255)  # left half red (BGR)
    image[:, 150:] = (255, 0, 0)  # right half blue
    return image


def test_crop_is_square_and_fills_it_whatever_the_box_shape():
    for box in ([100, 50, 130, 90], [10, 90, 290, 110], [140, 0, 160, 200]):
        crop = tile_crop(striped_image(), np.array(box, float))
        assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
        assert crop.dtype == np.uint8


def test_crop_keeps_left_and_right():
    crop = tile_crop(striped_image(), np.array([100, 50, 200, 150], float), pad=0.0)
    assert crop[32, 5, 2] == 255 and crop[32, 5, 0] == 0  # left: red
    assert crop[32, -5, 0] == 255 and crop[32, -5, 2] == 0  # right: blue


def test_box_beyond_the_image_replicates_the_border():
    crop = tile_crop(striped_image(), np.array([-50, -50, 20, 20], float), pad=0.0)
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert (crop[..., 2] == 255).all()  # all from the red left edge


def test_batch_is_rgb_nchw_in_unit_range():
    batch = crops_batch(striped_image(), np.array([[0, 0, 100, 100], [200, 0, 300, 100]], float))
    assert batch.shape == (2, 3, CROP_SIZE, CROP_SIZE) and batch.dtype == np.float32
    assert batch[0, 0].mean() == 1.0 and batch[1, 2].mean() == 1.0  # red first, blue second
    assert crops_batch(striped_image(), np.zeros((0, 4))).shape == (0, 3, CROP_SIZE, CROP_SIZE)


def test_a_box_wholly_outside_the_image_gives_a_black_crop_not_another_part_of_the_image():
    image = np.full((100, 200, 3), 200, np.uint8)
    for box in ([-80, -80, -10, -10], [-50, 10, -5, 40], [300, 10, 350, 40], [10, 150, 50, 190]):
        assert tile_crop(image, np.array(box, float), pad=0).max() == 0
    assert tile_crop(image, np.array([10, 10, 50, 50], float), pad=0).min() == 200
