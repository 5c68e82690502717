# capturefast: the two quick-start commands are `make run` and `make test`.
# Each builds what it needs into a project-local virtual environment (.venv) first.

VENV   ?= .venv
PY     := $(VENV)/bin/python
HANDS  ?= 5000

.PHONY: run test install lint-rust lint-python test-rust test-python bench-smoke bench clean

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Builds the Rust extension (release profile) and installs the package with its test tools.
install: $(PY)
	$(PY) -m pip install --quiet -e ".[test]"

# The main job: a batch simulation of every game for 2 and 4 players (random bots, every core),
# printing points, sweeps and each category per side with 95% confidence intervals.
run: install
	$(VENV)/bin/capturefast simulate --hands $(HANDS)

lint-rust:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace

test-rust:
	cargo test --workspace --release

lint-python: install
	$(VENV)/bin/ruff check python tests benches
	$(VENV)/bin/ruff format --check python tests benches
	$(PY) -m mypy
	$(PY) -m mypy.stubtest capturefast._core

test-python: install
	$(PY) -m pytest tests -q

# Benchmarks compile and run once as smoke tests (figures come from `make bench`).
bench-smoke: install
	cargo bench -p capturefast-bench --no-run
	$(PY) -m pytest benches/python -q --benchmark-disable

# The whole suite, in the order of STYLE.md §6; `.ci/run` calls exactly this.
test: lint-rust test-rust lint-python test-python bench-smoke

# Measured figures (not part of the test suite): Rust criterion and Python ratio benches.
bench: install
	cargo bench -p capturefast-bench -- --warm-up-time 1 --measurement-time 3
	$(PY) -m pytest benches/python --benchmark-enable --benchmark-only \
		--benchmark-columns=min,median,ops -q

clean:
	rm -rf $(VENV) target
