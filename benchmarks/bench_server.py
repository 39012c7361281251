"""The server under load: concurrent clients posting real photos to /api/detect on loopback.

    python benchmarks/bench_server.py [--clients 20] [--seconds 60] [--rules daishan] [--threads 8]

Starts `mjcam serve --port 0` in a child process, sends one warm-up photo, then lets ``--clients`` threads
post the `valid` photos (640×640 JPEGs, in turn) for ``--seconds``, each waiting for its answer before the
next. Prints one client's median time alone (10 photos, before the load), the requests, errors (any answer but 200, or a failed connection), p50/p95/max latency,
throughput, and the server's resident memory (VmRSS) before the load (after the warm-up) and after it.
"""
from __future__ import annotations

import argparse
import http.client
import os
import platform
import re
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "data" / "chinese-mahjong-detection" / "valid" / "images"


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MiB (Linux /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def multipart(photo: bytes, name: str, fields: dict[str, str]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{name}"\r\n'
                 f"Content-Type: image/jpeg\r\n\r\n".encode() + photo + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def post(port: int, body: bytes, content_type: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("POST", "/api/detect", body, {"Content-Type": content_type})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rules", default="daishan", help="rules sent with each photo (the hand is read too)")
    parser.add_argument("--threads", type=int, default=8, help="the server's request threads")
    args = parser.parse_args()

    photos = sorted(PHOTOS.glob("*.jpg"))
    bodies = [multipart(p.read_bytes(), p.name, {"rules": args.rules, "seat": "0"}) for p in photos]
    server = subprocess.Popen([sys.executable, "-m", "mjcam.cli", "serve", "--port", "0", "--threads", str(args.threads)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            print(f"bench_server: the server did not start: {line}{server.stdout.read()}", file=sys.stderr)
            return 1
        port = int(match.group(1))
        rss_before = rss_mb(server.pid)
        solo = []
        for body in bodies[:11]:  # a warm-up, then one client alone: the time a photo takes without a queue
            start = time.perf_counter()
            status = post(port, *body)
            if status != 200:
                print(f"bench_server: a request alone was answered HTTP {status}", file=sys.stderr)
                return 1
            solo.append(time.perf_counter() - start)
        solo = solo[1:]

        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        stop_at = time.monotonic() + args.seconds

        def client(k: int) -> None:
            n = k
            while time.monotonic() < stop_at:
                body = bodies[n % len(bodies)]
                n += args.clients
                start = time.perf_counter()
                try:
                    status = post(port, *body)
                except OSError as error:
                    status, detail = None, str(error)
                elapsed = time.perf_counter() - start
                with lock:
                    if status == 200:
                        latencies.append(elapsed)
                    else:
                        errors.append(f"HTTP {status}" if status else detail)

        started = time.monotonic()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.monotonic() - started
        rss_after = rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)

    if not latencies:
        print(f"bench_server: no request succeeded ({len(errors)} failed: {errors[:3]})", file=sys.stderr)
        return 1
    latencies.sort()
    # "inclusive": percentiles within the latencies measured (the default extrapolates past the slowest)
    quantile = statistics.quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else latencies * 99
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs; "
          f"{args.clients} clients, {args.seconds:.0f} s, rules {args.rules}, {args.threads} server threads")
    print(f"photos: {len(photos)} real 640×640 JPEGs from valid, in turn")
    print(f"one client alone: median {statistics.median(solo) * 1000:.0f} ms per photo (10 photos)")
    print(f"requests: {len(latencies) + len(errors)}, errors: {len(errors)}" + (f" ({errors[:3]})" if errors else ""))
    print(f"latency: p50 {quantile[49] * 1000:.0f} ms, p95 {quantile[94] * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms")
    print(f"throughput: {len(latencies) / wall:.1f} photos/s")
    print(f"server memory (RSS): {rss_before:.0f} MiB before, {rss_after:.0f} MiB after")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
