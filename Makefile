# Two commands for a fresh machine: `make run` and `make test`. Everything else is for developers.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint format worker beat serve bench bench-quick shots install migrate demo clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --no-input

demo: migrate
	$(BIN)/python manage.py demo_data

run: demo
	@echo "Serving on http://127.0.0.1:8000 (Ctrl-C to stop)"
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

worker: install    # one worker for every queue; in production see the README's worker per queue
	$(BIN)/celery -A harmonies_site worker -Q celery,bots,mail --loglevel=INFO

beat: install
	$(BIN)/celery -A harmonies_site beat --loglevel=INFO

# The production shape on one machine (Procfile: web, a worker per queue, beat), with the
# environment of the README's "Running at scale" set; http://127.0.0.1:8000 unless PORT is set.
serve: install
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "make serve needs DATABASE_URL and REDIS_URL (README: Running at scale)"; exit 1; }
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input -v0
	$(BIN)/honcho start -p $${PORT:-8000}

bench: install
	$(BIN)/python bench/bench_scoring.py
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/load/run.py    # the table of ratios to the floor, ~3 minutes
	$(BIN)/python bench/faults.py      # workers and Redis killed during play, ~1 minute
	FUZZ_FULL=1 $(BIN)/python -m pytest -q tests/security/test_fuzz.py  # all 10,820 forged requests

bench-quick: install   # the load bench alone, 6 s per scenario on 60 games: a check, not figures
	$(BIN)/python bench/load/run.py --quick

shots: install   # every main page at 360 and 1280 px, and every email, into test-results/shots/
	$(BIN)/python bench/shots.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .hypothesis
