# Two commands for a fresh machine: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# What is installed, one stamp per requirements file: serving, then the tests and tools on top.
RUNTIME := $(VENV)/.runtime-installed
DEV := $(VENV)/.dev-installed
TOOLS := $(VENV)/.tools-installed
# Where `make run` serves, and the address its emails and calendar links give.
PORT ?= 8000
SITE_URL ?= http://127.0.0.1:$(PORT)

.PHONY: run test messages catalogs lint format worker beat serve bench bench-quick bench-growth shots install install-dev install-tools migrate demo clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUNTIME): requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(RUNTIME)

$(DEV): requirements-dev.txt $(RUNTIME)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(DEV)

$(TOOLS): tools/requirements.txt $(DEV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r tools/requirements.txt
	touch $(TOOLS)

install: $(RUNTIME)    # what serving needs
install-dev: $(DEV)    # plus the tests, benchmarks and linters
install-tools: $(TOOLS)    # plus the research and tuning scripts in tools/

# The translations (locale/*/LC_MESSAGES/django.po) compiled for serving; fast, so always run.
messages: install
	$(BIN)/python manage.py compilemessages -v0 --ignore=.venv

# After marking new words: the catalogs brought up to date with the code (docs/languages.md).
catalogs: install
	$(BIN)/python manage.py makemessages -v0 --locale fr --locale de

migrate: messages
	$(BIN)/python manage.py migrate --no-input

demo: migrate
	$(BIN)/python manage.py demo_data

# The whole site (Procfile.dev: web, two workers, beat) on the embedded broker and cache.
run: demo
	@echo "Serving on $(SITE_URL) with its workers and beat (Ctrl-C stops them all)"
	PORT=$(PORT) SITE_URL=$(SITE_URL) $(BIN)/honcho -f Procfile.dev start -p $(PORT)

test: install-dev messages
	$(BIN)/python -m pytest

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python manage.py makemigrations --check --dry-run

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

worker: install    # one worker for every queue; in production see docs/operating.md: a worker per queue
	$(BIN)/celery -A harmonies_site worker -Q celery,bots,mail --loglevel=INFO

beat: install
	$(BIN)/celery -A harmonies_site beat --loglevel=INFO

# The production shape on one machine (Procfile: web, a worker per queue, beat), with the
# environment of docs/operating.md (Running at scale) set; http://127.0.0.1:8000 unless PORT is set.
serve: messages
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "make serve needs DATABASE_URL and REDIS_URL (docs/operating.md: Running at scale)"; exit 1; }
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input -v0
	$(BIN)/honcho start -p $${PORT:-8000}

bench: install-dev
	$(BIN)/python bench/bench_scoring.py
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/load/run.py    # the table of ratios to the floor, ~3 minutes
	$(BIN)/python bench/faults.py      # workers and Redis killed during play, ~1 minute
	FUZZ_FULL=1 $(BIN)/python -m pytest -q tests/security/test_fuzz.py  # all 10,820 forged requests
	$(BIN)/python bench/growth/run.py  # pages and tasks at 10k and 100k finished games, ~15 minutes

bench-growth: install-dev   # the growth bench alone; --quick (500 and 2,000 games) checks it in 2 minutes
	$(BIN)/python bench/growth/run.py $(ARGS)

bench-quick: install-dev   # the load bench alone, 6 s per scenario on 60 games: a check, not figures
	$(BIN)/python bench/load/run.py --quick

shots: install-dev   # every main page at 360 and 1280 px, and every email, into test-results/shots/
	$(BIN)/python tools/shots.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .hypothesis
