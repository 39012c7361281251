"""The `mjcam` command: one subcommand per product step, each defined next to the code it drives.

A subcommand module provides ``add_arguments(parser)`` and ``run(args) -> int``; it is imported only
when used, so `mjcam score` never loads OpenCV or ONNX Runtime.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "score": ("scoring.cli", "score a finished hand given as a table record (JSON)"),
    "detect": ("vision.detect_cli", "find and name every tile in photos"),
    "eval": ("vision.eval_cli", "measure the detector on a YOLO-format folder"),
    "read": ("vision.read_cli", "read a player's hand from a photo (and score it)"),
    "serve": ("webui.cli", "run the table page"),
}


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line (the usage itself is what --help is for)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mjcam")
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show Chinese gets it escaped, not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = _Parser(prog="mjcam", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"mjcam {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text) in SUBCOMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    known, _ = parser.parse_known_args(argv[:1] or ["--help"])
    module = importlib.import_module(SUBCOMMANDS[known.command][0])
    sub_parser = _Parser(prog=f"mjcam {known.command}", description=SUBCOMMANDS[known.command][1])
    module.add_arguments(sub_parser)
    args = sub_parser.parse_args(argv[1:])
    try:
        status = int(module.run(args) or 0)
        sys.stdout.flush()  # a write that fails (a full disk, a closed pipe) fails here, not after the exit
        return status
    except KeyboardInterrupt:
        return 130
    except OSError as error:  # each subcommand reports what it cannot read: this is the output (a full disk)
        if not isinstance(error, BrokenPipeError):  # its reader went away (`mjcam score ... | head`): stop quietly
            print(f"mjcam {known.command}: cannot write the output ({error.strerror or error})", file=sys.stderr)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the flush at exit cannot fail again
        return 1


if __name__ == "__main__":
    sys.exit(main())
