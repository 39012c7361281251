# Two set-up commands: `make run` (install, start the app) and `make test` (install, run every test).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install install-test apt-test model bench clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e .
	touch $@

install: $(VENV)/.installed

run: install
	$(VENV)/bin/mjcam serve --host $(HOST) --port $(PORT) $(if $(CAMERA),--camera $(CAMERA))

# Debian's Chromium for the browser tests (Playwright drives it; no browser download).
apt-test:
	@dpkg -s chromium fonts-noto-cjk libgl1 >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && $$SUDO apt-get install -y -q chromium fonts-noto-cjk libgl1 libglib2.0-0; }

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e '.[test]'
	touch $(VENV)/.installed $@

install-test: $(VENV)/.installed-test

test: apt-test install-test
	$(PY) -m pytest -q

# Rebuild the bundled model from ../shared (resumable; the detector's long runs take minutes on a GPU, days on the CPU): see models/README.md.
$(VENV)/.installed-train: pyproject.toml | $(VENV)/bin/python
	$(PIP) install -q -e '.[train,test]'
	touch $(VENV)/.installed $(VENV)/.installed-test $@

model: $(VENV)/.installed-train
	$(PY) -m datasets.train

bench: install-test
	$(PY) benchmarks/bench_scoring.py
	$(PY) benchmarks/bench_detect.py
	$(PY) benchmarks/bench_read.py

clean:
	rm -rf $(VENV) build
