"""The mounted webcam: stillness, one capture per still hand, a video file played like a camera."""
import os
import time

import cv2
import numpy as np
import pytest

from tests.table_video import VALID_IMAGES, write_table_video
from webui.camera import Camera, CameraError, StillnessSettings, changed_fraction, parse_source, small_grey

PHOTOS = sorted(VALID_IMAGES.glob("hand_00*.jpg"))[:2]


def picture(seed: int) -> np.ndarray:
    """A 320×240 frame of coarse random blocks, different for each seed."""
    blocks = np.random.default_rng(seed).integers(0, 256, (6, 8, 3), np.uint8)
    return cv2.resize(blocks, (320, 240), interpolation=cv2.INTER_NEAREST)


def test_parse_source():
    assert parse_source("0") == 0
    assert parse_source("table.avi") == "table.avi"
    assert parse_source("rtsp://cam/stream") == "rtsp://cam/stream"
    assert parse_source("²") == "²"  # a digit to Python, but no device index: a file name


def test_changed_fraction():
    a = small_grey(picture(1))
    assert changed_fraction(a, a, 20) == 0.0
    assert changed_fraction(a, small_grey(picture(2)), 20) > 0.5
    assert changed_fraction(a, a[:10], 20) == 1.0


@pytest.fixture
def video(tmp_path):
    path = tmp_path / "table.avi"
    write_table_video(path, PHOTOS, fps=10, still_seconds=1.5, sweep_seconds=0.5)
    return path


def test_missing_file_is_one_line():
    with pytest.raises(CameraError, match=r"^camera source nowhere\.avi: no such file"):
        Camera("nowhere.avi")


def test_a_folder_or_a_pipe_is_no_camera_source(tmp_path):
    with pytest.raises(CameraError, match=r"^camera source .*: a folder \(give a device index, a video file or a "):
        Camera(str(tmp_path))
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(CameraError, match=r"^camera source .*pipe: not a file or a device \(give"):
        Camera(str(tmp_path / "pipe"))


def test_unreadable_file_is_one_line(tmp_path):
    bogus = tmp_path / "notes.avi"
    bogus.write_text("not a video")
    with pytest.raises(CameraError, match="OpenCV cannot open it"):
        Camera(str(bogus))


def test_still_picture_is_captured_once_after_a_second(video):
    camera = Camera(str(video))
    frame = picture(1)
    captures = [camera.process(frame, t / 10) for t in range(30)]  # 3 s of the same picture at 10 fps
    assert [i for i, c in enumerate(captures) if c is not None] == [10]  # at 1.0 s, once
    jpeg, photo = camera.capture(captures[10])
    assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape == (240, 320, 3)
    assert (photo.width, photo.height) == (320, 240)


def test_motion_resets_and_only_a_new_picture_is_captured(video):
    camera = Camera(str(video), StillnessSettings(still_seconds=0.5))
    now = 0.0

    def show(frame, seconds):
        nonlocal now
        ids = []
        for _ in range(round(seconds * 10)):
            ids.append(camera.process(frame, now))
            now += 0.1
        return [i for i in ids if i is not None]

    assert show(picture(1), 1) == [1]
    assert show(picture(1), 0.3) == []  # a moment of motion…
    for seed in (7, 8, 9):
        assert show(picture(seed), 0.1) == []
    assert show(picture(1), 1) == []  # …then the same picture again: no new capture
    assert show(picture(5), 0.3) == []  # a new picture, not still long enough yet
    assert show(picture(5), 1) == [2]


def test_a_hand_laid_on_a_dim_table_is_captured(video):
    camera = Camera(str(video), StillnessSettings(still_seconds=0.5))
    table = np.full((240, 320, 3), (40, 90, 30), np.uint8)
    hand = cv2.resize(cv2.imread(str(PHOTOS[0])), (320, 240), interpolation=cv2.INTER_AREA)
    now = 0.0
    for frame, seconds in ((table, 1.0), (hand, 1.0)):  # a cleared table, then a hand, at a tenth of the light
        dim = (frame * 0.1).astype(np.uint8)
        captures = []
        for k in range(round(seconds * 10)):
            captures.append(camera.process(cv2.add(dim, np.full_like(dim, k % 2)), now))
            now += 0.1
        assert [c for c in captures if c is not None] == [1 if frame is table else 2]


def test_noise_below_threshold_counts_as_still(video):
    camera = Camera(str(video))
    base = picture(3)
    noisy = [cv2.add(base, np.full_like(base, k % 3)) for k in range(15)]
    assert [c for k, frame in enumerate(noisy) if (c := camera.process(frame, k / 10)) is not None] == [1]


def test_capture_now_and_status(video):
    camera = Camera(str(video))
    assert camera.capture_now() is None
    assert camera.frame_jpeg() is None
    camera.process(picture(1), 0.0)
    assert camera.capture_now() == 1
    assert camera.frame_jpeg()[:3] == b"\xff\xd8\xff"
    status = camera.status()
    assert status["capture"] == 1 and status["frames"] == 1 and status["size"] == [320, 240]


def test_a_stream_that_sends_no_frame_for_three_seconds_is_said_lost_and_its_stillness_starts_again(video):
    # a stream paused while its connection stays open: OpenCV's read waits about 30 s before it fails
    camera = Camera(str(video))
    for t in range(11):
        camera.process(picture(1), t / 10)  # still for a second: captured
    assert camera.status(now=3.0)["error"] is None  # 2 s without a frame: not yet
    stalled = camera.status(now=4.5)
    assert stalled["lost"] is True and stalled["stalled"] is True
    assert stalled["error"] == f"camera source {video}: no frame for 4 s"
    camera.process(picture(1), 20.0)  # frames again, the same picture
    again = camera.status(now=20.0)
    assert again["error"] is None and again["lost"] is False and again["still_seconds"] == 0.0  # not "still 19 s"


def test_a_stream_that_opens_but_sends_no_first_frame_is_said_lost_after_three_seconds(video):
    camera = Camera(str(video))
    camera._started = 50.0  # as `start` sets it, its thread not run: no frame comes
    assert camera.status(now=52.0)["error"] is None
    assert camera.status(now=54.0)["stalled"] is True and camera.status(now=54.0)["frames"] == 0


def played_to_the_end(source: str, seconds: float, poll: float) -> tuple[Camera, dict]:
    """A camera on a video file, stopped once it has ended (or after ``seconds``), and its status then."""
    camera = Camera(source).start()
    deadline = time.monotonic() + seconds
    while not camera.status()["ended"] and time.monotonic() < deadline:
        time.sleep(poll)
    status = camera.status()
    camera.stop()
    return camera, status


def test_video_file_plays_like_a_camera_and_captures_each_hand(video):
    camera, status = played_to_the_end(str(video), 30, 0.1)
    assert status["ended"] and not status["running"] and status["error"] is None and status["lost"] is False
    assert status["frames"] == 2 * (5 + 15)
    assert status["capture"] == 2  # one capture per photo held still
    for capture_id in (1, 2):
        jpeg, photo = camera.capture(capture_id)
        assert (photo.width, photo.height) == (640, 480)


def test_a_fast_camera_is_looked_at_ten_times_a_second_and_still_captures_each_hand(tmp_path):
    """A 30 fps source: two frames of three are taken off it undecoded (`LOOK_SECONDS`), and stillness, judged
    on the frames looked at, still captures each hand once."""
    path = tmp_path / "fast.avi"
    frames = write_table_video(path, PHOTOS, fps=30, still_seconds=1.5, sweep_seconds=0.5)
    _, status = played_to_the_end(str(path), 30, 0.1)
    assert status["ended"] and status["capture"] == 2
    assert status["frames"] == frames == 2 * (15 + 45) and frames / 3 - 4 <= status["looked"] <= frames / 3 + 4


def jpeg(seed: int) -> bytes:
    return cv2.imencode(".jpg", picture(seed))[1].tobytes()


def test_a_raw_mjpeg_stream_is_a_video_and_one_frame_is_a_still_image(tmp_path):
    """`cat a.jpg b.jpg c.jpg > raw.mjpeg` starts like a JPEG but OpenCV reads it as a video; a file it reads only
    one frame from is a still image, whatever it is called."""
    raw = tmp_path / "raw.mjpeg"
    raw.write_bytes(b"".join(jpeg(seed) for seed in (1, 2, 3)))
    _, status = played_to_the_end(str(raw), 10, 0.02)
    assert status["ended"] and status["frames"] == 3 and status["size"] == [320, 240]
    one = tmp_path / "one.mjpeg"
    one.write_bytes(jpeg(1))
    with pytest.raises(CameraError, match=r"^camera source .*one\.mjpeg: a still JPEG image, not a video \(give"):
        Camera(str(one))
    single = tmp_path / "single.avi"
    writer = cv2.VideoWriter(str(single), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    writer.write(picture(1))
    writer.release()
    with pytest.raises(CameraError, match=r"^camera source .*single\.avi: a still image, not a video \(give"):
        Camera(str(single))


def test_a_device_node_is_opened_like_a_device_index(monkeypatch):
    """A character device (/dev/video0; /dev/null here) goes to OpenCV as it is, not refused as no such file."""
    with pytest.raises(CameraError, match=r"^camera source /dev/null: OpenCV (cannot open it|opens it but reads no "
                                          r"frame from it)$"):
        Camera("/dev/null")

    class FakeCapture:  # what OpenCV gives for a working webcam
        opened: list[object] = []

        def __init__(self, source):
            self.opened.append(source)

        def isOpened(self):
            return True

        def read(self):
            return True, picture(1)

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", FakeCapture)
    camera = Camera(parse_source("/dev/null"))
    assert (camera.source, camera.is_file, FakeCapture.opened) == ("/dev/null", False, ["/dev/null"])  # a live camera
