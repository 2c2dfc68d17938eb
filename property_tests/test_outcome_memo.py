"""Recording and replaying claims' outcomes (checks/outcome_memo.py): a replay gives the report a fresh run gives,
reads back instead of computing, misses when anything the outcome is a function of changes, and stores nothing it
must not (errors, skips, undeclared data, figure-drawing runs, contexts with extra settings, other projects)."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from privclaims.checks import outcome_memo
from privclaims.checks.outcome_memo import RECORD_ENV, REPLAY_ENV, outcome_key, record, storable, stored_outcome
from privclaims.checks.project import load_project, papers
from privclaims.checks.registry import Context, default_data_dir
from privclaims.checks.runner import owed_combinations, run_claims, run_one
from privclaims.checks.verdict import Outcome, Part, by_part, verified
from privclaims.theory import cache
from property_tests.conftest import ROOT
from property_tests.test_determinism import strip_timings

CLAIM = "dp.def2"  # quick, exact, no data: a cheap claim to record and replay


def _plain(rows):
    """Rows as the JSON report holds them, timings and the replay mark dropped."""
    return strip_timings([{k: v for k, v in r.items() if k != "replayed"} for r in json.loads(json.dumps(rows))])


def _counting(project, claim_id):
    """``(project, calls)``: a copy of ``project`` whose check of ``claim_id`` counts its calls in ``calls``."""
    chk = project.checks[claim_id]
    calls = []

    def counted(ctx):
        calls.append(ctx)
        return chk.fn(ctx)

    return replace(project, checks={**project.checks, claim_id: replace(chk, fn=counted)}, pin_cache={}), calls


def _ctx(project, claim_id, **changes):
    """The context the runner gives ``claim_id``'s check (its combinations and parts set)."""
    ctx = Context(quick=True, data_dir=default_data_dir(), documents_dir=project.documents_dir())
    return replace(ctx, combinations=tuple(owed_combinations(project, claim_id)[0]),
                   parts=project.checks[claim_id].parts, **changes)


def test_a_replayed_quick_ledger_is_the_fresh_one(quick_ledger, replay_outcomes, monkeypatch):
    """Every claim the session's fresh two-worker run computed is replayed from what the quick-ledger runs recorded
    (none computed again), and the replayed rows are that run's rows, timings aside - verdicts, readings, evidence,
    pins - so a run that replays shows what computing shows."""
    (fresh,) = quick_ledger(2)
    assert fresh.returncode == 0, fresh.stderr[-2000:]
    want = fresh.doc()["claims"]
    monkeypatch.setenv(REPLAY_ENV, replay_outcomes[REPLAY_ENV])
    ctx = Context(seed=fresh.seed, quick=True, data_dir=default_data_dir(),
                  profile=os.environ.get("HYPOTHESIS_PROFILE", "ci"))  # as the CLI makes it
    rows = run_claims([c["id"] for c in want], ctx, workers=1)
    computed = [c["id"] for c in want if not c["evidence"].get("skipped")]
    assert len(computed) > 100  # the comparison is not vacuous
    assert [r["id"] for r in rows if r.get("replayed")] == computed
    assert _plain(rows) == strip_timings(want)


def test_a_replay_reads_the_recorded_outcome_instead_of_computing(tmp_path, monkeypatch):
    project, calls = _counting(papers(), CLAIM)
    ctx = Context(quick=True, data_dir=default_data_dir())
    monkeypatch.setenv(RECORD_ENV, str(tmp_path))
    fresh = run_one(CLAIM, ctx, project)
    assert len(calls) == 1 and "replayed" not in fresh and len(list(tmp_path.glob("*.pkl"))) == 1
    monkeypatch.delenv(RECORD_ENV)
    monkeypatch.setenv(REPLAY_ENV, str(tmp_path))
    again = run_one(CLAIM, ctx, project)
    assert len(calls) == 1 and again["replayed"] is True
    assert _plain([again]) == _plain([fresh])
    monkeypatch.delenv(REPLAY_ENV)  # neither set: computed, nothing read
    assert "replayed" not in run_one(CLAIM, ctx, project) and len(calls) == 2


def test_a_replay_computes_and_stores_what_it_does_not_find(tmp_path, monkeypatch):
    project, calls = _counting(papers(), CLAIM)
    monkeypatch.setenv(REPLAY_ENV, str(tmp_path))
    first = run_one(CLAIM, Context(quick=True), project)
    second = run_one(CLAIM, Context(quick=True), project)
    assert len(calls) == 1 and "replayed" not in first and second["replayed"] is True


def test_a_recording_run_always_computes(tmp_path, monkeypatch):
    project, calls = _counting(papers(), CLAIM)
    monkeypatch.setenv(RECORD_ENV, str(tmp_path))
    for _ in range(2):
        assert "replayed" not in run_one(CLAIM, Context(quick=True), project)
    assert len(calls) == 2


def test_the_key_changes_with_everything_the_outcome_depends_on(tmp_path, monkeypatch):
    """Seed, mode, profile, owed combinations and parts, the catalogue's entry, a declared data set's bytes, a
    document's bytes, the package's source and the runtime each give another memo file."""
    project = papers()
    chk = replace(project.checks[CLAIM], needs_data=("mine",))
    data = tmp_path / "data"
    (data / "mine").mkdir(parents=True)
    (data / "mine" / "f.txt").write_text("1")
    docs = tmp_path / "docs"
    docs.mkdir()
    src = project.documents_dir()
    for name in project.config.documents.files:
        (docs / name).write_bytes((src / name).read_bytes())
    base = _ctx(project, CLAIM, data_dir=data, documents_dir=docs)
    project = replace(project, documents_override=docs)

    def name(p=project, c=chk, ctx=base):
        return cache.key_name(outcome_key(p, CLAIM, c, ctx))

    names = {"base": name()}
    names["seed"] = name(ctx=replace(base, seed=base.seed + 1))
    names["mode"] = name(ctx=replace(base, quick=False))
    names["profile"] = name(ctx=replace(base, profile="thorough"))
    names["combinations"] = name(ctx=replace(base, combinations=base.combinations[:0]))
    names["parts"] = name(ctx=replace(base, parts=(Part("a", "a part"),)))
    entry = project.catalog[CLAIM]
    names["entry"] = name(p=replace(project, catalog={**project.catalog, CLAIM: replace(entry, statement="other")}))
    names["data path"] = name(c=replace(chk, needs_data=("mine", "other")))
    (data / "mine" / "f.txt").write_text("2")
    names["data bytes"] = name()
    doc = docs / project.config.documents.files[0]
    doc.write_bytes(doc.read_bytes() + b" ")
    names["document bytes"] = name()
    monkeypatch.setattr(cache, "code_key", lambda: "another source")
    names["code"] = name()
    monkeypatch.setattr(cache, "runtime_key", lambda: {"python": "another"})
    names["runtime"] = name()
    assert len(set(names.values())) == len(names), names


def test_nothing_is_memoised_that_must_be_computed(tmp_path, monkeypatch):
    """No key (never stored, never replayed) for a run drawing figures, a context with extra settings, or another
    project; not stored: an error anywhere in the outcome, a skip, or an outcome of a check that read a data set it
    does not declare."""
    project = papers()
    chk = project.checks[CLAIM]
    ctx = _ctx(project, CLAIM)
    assert outcome_key(project, CLAIM, chk, ctx) is not None
    assert outcome_key(project, CLAIM, chk, replace(ctx, extra={"reports_dir": str(tmp_path)})) is None
    monkeypatch.setenv("PRIVCLAIMS_REPORTS", str(tmp_path))
    assert outcome_key(project, CLAIM, chk, ctx) is None
    monkeypatch.delenv("PRIVCLAIMS_REPORTS")
    mine = load_project(str(ROOT / "examples" / "my-draft"))
    cid = next(iter(mine.checks))
    assert outcome_key(mine, cid, mine.checks[cid], _ctx(mine, cid)) is None

    ok = verified()
    assert storable(ok, chk, ctx)
    assert not storable(Outcome("error", {"error": "timed out after 900 s"}), chk, ctx)
    assert not storable(by_part({"a": ok, "b": Outcome("error", {"error": "x"})}), chk, ctx)
    assert not storable(Outcome("not-checked", {"skipped": True}), chk, ctx)
    reading = replace(ctx, data_read=["geolife"])
    assert not storable(ok, chk, reading) and storable(ok, replace(chk, needs_data=("geolife",)), reading)
    key = outcome_key(project, CLAIM, chk, ctx)
    assert not record(tmp_path, key, Outcome("error", {"error": "x"}), chk, ctx) and not list(tmp_path.iterdir())
    assert not record(tmp_path, key, verified(decision=lambda: None), chk, ctx)  # does not pickle: not stored
    assert record(tmp_path, key, ok, chk, ctx) and stored_outcome(tmp_path, key) == ok
    (tmp_path / (cache.key_name(key) + ".pkl")).write_bytes(b"not a pickle")
    assert stored_outcome(tmp_path, key) is None  # a memo that does not read back is computed again


def test_an_undeclared_data_read_is_computed_every_time(tmp_path, monkeypatch):
    """The runner notes the data sets a check asks for; a check reading one it does not declare is never stored
    (only declared data are in the key)."""
    project = papers()
    chk = project.checks[CLAIM]
    calls = []

    def reads_geolife(ctx):
        calls.append(ctx.data_read)
        ctx.data("geolife")
        return chk.fn(ctx)

    project = replace(project, checks={**project.checks, CLAIM: replace(chk, fn=reads_geolife)}, pin_cache={})
    data = tmp_path / "data"
    (data / "geolife").mkdir(parents=True)
    memo = tmp_path / "memo"
    monkeypatch.setenv(REPLAY_ENV, str(memo))
    ctx = Context(quick=True, data_dir=data)  # one context for the run, as the ledger's command line has
    for _ in range(2):
        assert "replayed" not in run_one(CLAIM, ctx, project)
    assert len(calls) == 2 and calls[0] == ["geolife"] and calls[0] is not calls[1]  # a fresh list per claim
    assert not memo.exists() or not list(memo.glob("*.pkl"))
    assert ctx.data_read == []  # the caller's context is left alone, so the next claim's reads are its own:
    run_one("dp.def3", ctx, project)
    assert len(list(memo.glob("*.pkl"))) == 1


def test_the_suite_runs_under_test_never_replay():
    """The conftest removes a shell's settings, so the suite's in-process runs and the determinism tests' runs
    compute."""
    assert RECORD_ENV not in os.environ and REPLAY_ENV not in os.environ
    assert outcome_memo.folders() == (None, None)
    assert outcome_memo.folders({RECORD_ENV: "a", REPLAY_ENV: ""}) == (Path("a"), None)


@pytest.mark.parametrize("name", [RECORD_ENV, REPLAY_ENV])
def test_the_folders_are_validated_like_the_other_variables(name, tmp_path):
    from property_tests.test_reports import run_cli

    r = run_cli("--claim", CLAIM, "--workers", "1", env={name: str(ROOT / "README.md")})
    assert r.returncode == 2 and name in r.stderr and "not a folder" in r.stderr and "Traceback" not in r.stderr
    ok = run_cli("--claim", CLAIM, "--workers", "1", env={name: str(tmp_path / "new")})
    assert ok.returncode == 0 and len(list((tmp_path / "new").glob("*.pkl"))) == 1
    assert "replayed:" not in ok.stdout
    md, page, doc = tmp_path / "r.md", tmp_path / "r.html", tmp_path / "r.json"
    again = run_cli("--claim", CLAIM, "--workers", "1", "--markdown", str(md), "--html", str(page), "--json", str(doc),
                    env={name: str(tmp_path / "new")})
    said = f"replayed: 1 claim outcome(s) read back from ${REPLAY_ENV}"
    assert again.returncode == 0 and (said in again.stdout) == (name == REPLAY_ENV)  # the console says so,
    assert ("1 of them replayed" in md.read_text()) == (name == REPLAY_ENV)  # and the Markdown report
    assert ("1 of them replayed" in page.read_text()) == (name == REPLAY_ENV)  # and the HTML one
    card = "; replayed: read back from a recorded run"  # and the claim's own card (every claim has one in the HTML
    assert (card in page.read_text()) == (name == REPLAY_ENV)  # report; the Markdown one has cards for findings)
    from privclaims.checks.report import claim_markdown

    (row,) = json.loads(doc.read_text())["claims"]
    assert (card in "\n".join(claim_markdown(row))) == (name == REPLAY_ENV)  # the Markdown card (findings, --show)


def test_a_mutants_nets_never_record_or_replay(tmp_path, monkeypatch):
    """The mutation campaign's nets compute every claim under the mutant: a shell's settings do not reach them."""
    from privclaims.counterexamples.mutants import net_env

    monkeypatch.setenv(RECORD_ENV, str(tmp_path / "r"))
    monkeypatch.setenv(REPLAY_ENV, str(tmp_path / "p"))
    env = net_env(tmp_path / "copy", tmp_path / "scratch")
    assert RECORD_ENV not in env and REPLAY_ENV not in env
    assert env["PRIVCLAIMS_CACHE"] == str(tmp_path / "scratch" / "cache")


def test_the_key_holds_the_documents_the_check_reads(tmp_path):
    """The documents digested are the context's (the folder ctx.document reads), not the project's search result: a
    caller's other documents never replay an outcome computed from the project's (a reviewer's case: querygen.table1
    computed an error from a copy with one Table 1 cell changed, then replayed 'verified' from the real documents)."""
    project = papers()
    chk = project.checks[CLAIM]
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in project.config.documents.files:
        (docs / name).write_bytes((project.documents_dir() / name).read_bytes() + b" other")
    own, other = (outcome_key(project, CLAIM, chk, _ctx(project, CLAIM, documents_dir=d))
                  for d in (project.documents_dir(), docs))
    assert cache.key_name(own) != cache.key_name(other)


def test_what_is_never_stored_or_replayed_beyond_the_headline(tmp_path):
    """A part's or a reading's error under a headline that is not one; a context with extra settings other than a
    reports folder; a memo that unpickles to something other than an Outcome."""
    project = papers()
    chk = project.checks[CLAIM]
    ctx = _ctx(project, CLAIM)
    assert not storable(Outcome("verified", {}, per_part={"b": Outcome("error", {"error": "x"})}), chk, ctx)
    assert not storable(Outcome("verified", {}, per_reading={"r": Outcome("error", {"error": "x"})}), chk, ctx)
    assert outcome_key(project, CLAIM, chk, replace(ctx, extra={"other": 1})) is None
    key = outcome_key(project, CLAIM, chk, ctx)
    cache.write_memo(tmp_path / (cache.key_name(key) + ".pkl"), {"verdict": "verified"})
    assert stored_outcome(tmp_path, key) is None


def test_a_check_that_swallows_its_timeout_is_not_stored(tmp_path, monkeypatch):
    """The alarm fired (the check ran to its limit) though the check caught it: computed again every time. (The
    timeout is a BaseException, so only a check catching BaseException can swallow it.)"""
    import time

    project = papers()
    chk = project.checks[CLAIM]

    def swallows(ctx):
        try:
            time.sleep(1.5)
        except BaseException:  # noqa: BLE001 - the runner's timeout, caught as a check's bare except would
            pass
        return chk.fn(ctx)

    project = replace(project, checks={**project.checks, CLAIM: replace(chk, fn=swallows, timeout=1)}, pin_cache={})
    monkeypatch.setenv(RECORD_ENV, str(tmp_path))
    assert run_one(CLAIM, Context(quick=True), project)["verdict"] != "error"  # the check hid its timeout
    assert not list(tmp_path.glob("*.pkl"))


def test_the_api_context_keys_the_profile_the_cli_keys(monkeypatch):
    """Context() (the Python API, the notebooks) takes $HYPOTHESIS_PROFILE as the command line does, so a notebook
    replays what the ledger recorded under any profile."""
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "thorough")
    assert Context().profile == "thorough"
    monkeypatch.delenv("HYPOTHESIS_PROFILE")
    assert Context().profile == "ci"


def test_the_conftest_removes_a_shells_folders(tmp_path):
    """A fresh interpreter importing the suite's conftest with both folders set in its environment has neither
    afterwards (the guard above passes in a clean shell whatever the conftest does)."""
    import subprocess
    import sys

    code = ("import os, property_tests.conftest; "
            f"print(sorted(k for k in os.environ if k in ({RECORD_ENV!r}, {REPLAY_ENV!r})))")
    env = {**os.environ, RECORD_ENV: str(tmp_path / "r"), REPLAY_ENV: str(tmp_path / "p")}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stderr[-2000:]
