# capturefast: the two quick-start commands are `make run` and `make test`.
# Each builds what it needs into a project-local virtual environment (.venv) first.

VENV   ?= .venv
PY     := $(VENV)/bin/python
HANDS  ?= 5000

# The first build of the extension compiles the Rust core and its dependencies (pyo3, numpy):
# about a minute on 2 cores, during which `pip --quiet` would print nothing. So the first
# install shows pip's steps; once the package is in the venv, rebuilds take seconds, quietly.
INSTALLED := $(wildcard $(VENV)/lib/python*/site-packages/capturefast-*.dist-info)
PIP_FLAGS := $(if $(INSTALLED),--quiet -e,-e)

.PHONY: run test install lint-rust lint-python lint-examples test-rust test-python bench-smoke bench clean

$(PY):
	@echo "make: creating the virtual environment $(VENV) (once)"
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Builds the Rust extension (release profile) and installs the package with its test tools.
install: $(PY)
ifeq ($(INSTALLED),)
	@echo "make: building the Rust extension and installing capturefast into $(VENV): the first"
	@echo "      build compiles the Rust core and its dependencies, about a minute on 2 cores"
else
	@echo "make: rebuilding the Rust extension if its sources changed"
endif
	$(PY) -m pip install $(PIP_FLAGS) ".[test]"

# The main job: a batch simulation of every game for 2 and 4 players (random bots, every core),
# printing points, sweeps and each category per side with 95% confidence intervals.
run: install
	@echo "make: simulating $(HANDS) hands of each game"
	$(VENV)/bin/capturefast simulate --hands $(HANDS)

lint-rust:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace

# The Rust tests, and the criterion benches run once each as smoke tests (criterion's test
# mode), in ONE cargo invocation. The bench profile is the release one (it inherits it), but
# cargo builds a dependency as bitcode only or with object code depending on what the whole
# build links it into (thin LTO), so a separate `cargo bench -p capturefast-bench --no-run`
# compiled 13 crates a second time (capturefast-core, criterion, serde, syn, libc, ...).
# Choosing the targets leaves out doctests: the Rust sources have none, and running
# `cargo test --doc` would cost 18 more crates, so it runs only once a doc example exists.
test-rust:
	cargo test --workspace --release --lib --bins --tests --bench '*'
	@if grep -rqE '^\s*//[/!]\s*```' rust benches; then cargo test --workspace --release --doc; fi

lint-python: install
	$(VENV)/bin/ruff check python tests benches examples
	$(VENV)/bin/ruff format --check python tests benches examples
	$(PY) -m mypy
	$(PY) -m mypy.stubtest capturefast._core

# The examples' types, with their extra (torch, matplotlib) installed: not part of `make test`,
# which does not install them.
lint-examples: install
	$(PY) -m pip install --quiet -e ".[examples]"
	$(PY) -m mypy examples

test-python: install
	$(PY) -m pytest tests -q

# The Python benches run once as smoke tests (figures come from `make bench`); the Rust ones
# are built and run once by `test-rust`.
bench-smoke: install
	$(PY) -m pytest benches/python -q --benchmark-disable

# The whole suite, in the order of STYLE.md §6; `.ci/run` calls exactly this. The last line
# is printed only when every step passed (make stops at the first failure; pytest's exit 5,
# no test collected, is a failure too).
test: lint-rust test-rust lint-python test-python bench-smoke
	@echo "make test: all checks passed (Rust lints and docs, Rust tests and bench smoke," \
		"Python lints, stubs, Python tests, Python bench smoke)"

# Measured figures (not part of the test suite): Rust criterion and Python ratio benches.
bench: install
	cargo bench -p capturefast-bench -- --warm-up-time 1 --measurement-time 3
	$(PY) -m pytest benches/python --benchmark-enable --benchmark-only \
		--benchmark-columns=min,median,ops -q

clean:
	rm -rf $(VENV) target
