# Set-up and everyday commands. Everything happens inside .venv, created on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run play test slow quick lint typecheck unit bench bench-serve serve-venv browser vendor clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,train,solve,plot,interop,distributed,server,fast]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

## vendor: MediaPipe Hands and axe-core (pinned in src/taut/server/web/vendor) into build/vendor:
## the server serves MediaPipe for signing to the camera, the tests run axe-core's
## accessibility audit; without npm the camera is simply off and the audit skips
VENDOR := build/vendor
VENDOR_SPEC := src/taut/server/web/vendor
# MediaPipe Hands' files are also copied into the package (src/taut/server/web/mediapipe,
# not kept in git), so that a wheel or sdist built afterwards carries them with their licence.
PACKAGED_HANDS := src/taut/server/web/mediapipe
HANDS_FILES := hands.js hands.binarypb hands_solution_packed_assets.data \
	hands_solution_packed_assets_loader.js hands_solution_simd_wasm_bin.data \
	hands_solution_simd_wasm_bin.js hands_solution_simd_wasm_bin.wasm \
	hands_solution_wasm_bin.js hands_solution_wasm_bin.wasm hand_landmark_full.tflite \
	hand_landmark_lite.tflite
$(VENDOR)/.installed: $(VENDOR_SPEC)/package.json $(VENDOR_SPEC)/package-lock.json
	mkdir -p $(VENDOR)
	cp $(VENDOR_SPEC)/package.json $(VENDOR_SPEC)/package-lock.json $(VENDOR)/
	if npm ci --prefix $(VENDOR) --no-audit --no-fund --ignore-scripts; then \
		mkdir -p $(PACKAGED_HANDS) && \
		cp $(addprefix $(VENDOR)/node_modules/@mediapipe/hands/,$(HANDS_FILES)) $(PACKAGED_HANDS)/ && \
		cp $(VENDOR_SPEC)/MEDIAPIPE-LICENSE.txt $(PACKAGED_HANDS)/LICENSE.txt && touch $@; \
	else echo "MediaPipe Hands and axe-core could not be installed: signing to the camera will be off and the accessibility audit will skip."; fi

vendor: $(VENDOR)/.installed

## run: start the browser server; open the address it prints (http://127.0.0.1:8000)
run: $(STAMP) vendor
	$(BIN)/taut serve

## play: play Pulling Strings in the terminal against the computer
play: $(STAMP)
	$(BIN)/taut play pulling-strings --x human --o greedy

## browser: Debian's Chromium for the browser tests (they say so and skip when it is missing)
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } \
		|| echo "Chromium could not be installed: the browser tests will be skipped."

## test: lint, type-check and run the test suite (the slow set runs with `make slow`)
test: $(STAMP) browser vendor lint typecheck unit

## slow: the slow set: OpenSpiel's value iteration, every 4x4 Track Tiles start re-solved,
## the property tests with their large budget, random play's exact odds on the 3x3 Track
## Tiles tree (about 20 minutes)
slow: $(STAMP) browser vendor
	$(BIN)/python -m pytest -m slow

## quick: the test suite without installing Chromium or MediaPipe (their tests skip)
quick: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/lint-imports --no-cache --no-logo

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

## bench: the benchmarks whose results the README and docs/agents.md report
bench: $(STAMP)
	$(BIN)/python benchmarks/pulling_strings_turns.py
	$(BIN)/python benchmarks/pulling_strings_search.py
	$(BIN)/python benchmarks/push_pull_solve.py
	$(BIN)/python benchmarks/tug_of_war_selfplay.py
	$(BIN)/python benchmarks/tracks_solve.py
	$(BIN)/python benchmarks/tracks_perfect_solve.py
	$(BIN)/python benchmarks/push_pull_exploitability.py
	$(BIN)/python benchmarks/push_pull_random_reply.py
	$(BIN)/python benchmarks/vs_openspiel.py
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/signs_real.py
	$(BIN)/python benchmarks/push_pull_four.py --games 100 --think 0.2 --workers 2
	$(BIN)/python benchmarks/tug_of_war_strength.py --games 200 --think 0.1 --seed 1 --workers 2
	$(BIN)/taut arena pulling-strings --agents hard,medium --games 24 --seed 4 --workers 2

## bench-serve: the server's CPU a command and a move in every game, in process and over the
## network at 1,000 and 200 clients, a connection's, and the instructions counted by
## valgrind's callgrind (where it is installed), each with its ratio to SERVE_BASE, the tree
## before frames carried what changed (about 45 minutes; docs/server.md, "Load", says how to
## read them)
SERVE_BASE ?= 1920fdd
# SERVER_PYTHON=.venv-serve/bin/python: the load's servers on that interpreter (serve-venv).
SERVER_PYTHON ?=
SERVE_LOAD := $(BIN)/python benchmarks/serve_load.py --game all --guests --db sqlite --rev $(SERVE_BASE) \
	$(if $(SERVER_PYTHON),--python $(SERVER_PYTHON))
bench-serve: $(STAMP)
	$(BIN)/python benchmarks/serve_path.py --game all --repeat 3 --rev $(SERVE_BASE)
	$(SERVE_LOAD) --clients 1000 --seconds 15 --repeat 2
	$(SERVE_LOAD) --clients 200 --seconds 15 --repeat 2
	$(BIN)/python benchmarks/serve_connect.py --rev $(SERVE_BASE)
	if command -v valgrind > /dev/null; then $(SERVE_LOAD) --clients 12 --seconds 40 --instructions; \
	else echo "valgrind is not installed: no instructions counted"; fi

## serve-venv: a venv for the server alone, in .venv-serve, on the interpreter SERVE_PYTHON
## (make serve-venv SERVE_PYTHON=/usr/bin/python3.11), for `make bench-serve
## SERVER_PYTHON=.venv-serve/bin/python`: an interpreter built with profile-guided
## optimisation serves a move for about a tenth less CPU (docs/server.md, "The interpreter")
SERVE_PYTHON ?= python3
serve-venv:
	test -x .venv-serve/bin/python || $(SERVE_PYTHON) -m venv .venv-serve
	.venv-serve/bin/python -m pip install --quiet --upgrade pip
	.venv-serve/bin/python -m pip install --quiet -e '.[server,fast]'

clean:
	rm -rf $(VENV) .venv-serve .pytest_cache .mypy_cache .ruff_cache $(PACKAGED_HANDS)
