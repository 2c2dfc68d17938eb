"""The ``privclaims`` command line: exact checks of your own instances, and the claims ledger.

Exit status: 0 when the stated property holds, 1 when it does not (the witness is printed), 2 on bad
input (one line on stderr naming the problem; never a traceback). ``--json`` makes every output JSON,
errors included (``{"error": ..., "exit_status": 2}`` on stdout). A closed pipe (``... | head``) ends the
command quietly with its own exit status.

Each subcommand's ``--help`` is generated from what it accepts: its input formats from
:mod:`privclaims.formats`, each option's values and default, and the number rules of its own options
(``ln(3)`` only where ε may be a logarithm, ``--floats`` only where it exists).

``privclaims ledger ...`` runs the claims ledger (= ``python -m privclaims ledger ...``); for backward
compatibility ``privclaims --list`` and any first argument starting with ``-`` do too.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from typing import Any, Callable, Sequence

from privclaims.theory.errors import InvalidInput, UndecidedComparison

NUMBERS = "Numbers on the command line are exact: '1/3', '0.25', '2', '1e-300'."
EPS_LN = "ε may also be the logarithm of a rational, 'ln(3)' (then e^ε = 3 exactly)."
EPS_RATIONAL = "ε is a rational here (λ and σ² are computed from it); 'ln(3)' is accepted by dp check only."
FLOATS = ("--floats: renormalise each distribution written with JSON numbers whose sum is within 10^-9 of 1 "
          "(a program's float rounding), and report the largest change; without it such a row is an error.")
JSON_NUMBERS = "In JSON files a number is the decimal written (0.51 is 51/100), and '1/3' may be written as a string."


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs kept as written; each option's default shown (when it has one)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if not (action.default is None or action.default is False or action.default == argparse.SUPPRESS) \
                and "%(default)" not in text:
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    json_errors = False

    def error(self, message: str) -> None:  # one line, exit 2 (JSON with --json)
        _fail(f"{self.prog}: error: {message} (see --help)", self.json_errors)


def _fail(message: str, as_json: bool) -> None:
    if as_json:
        _print(json.dumps({"error": message, "exit_status": 2}, ensure_ascii=False))
    else:
        print(message, file=sys.stderr)
    raise SystemExit(2)


def _print(text: str) -> None:
    """Write a line to stdout; a reader that went away (``| head``) ends the output quietly."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()


def _quiet_stdout() -> None:
    """Send the rest of stdout to /dev/null (Python would report the broken pipe again at exit)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a descriptor (captured in tests)
        pass


def _emit(result: Any, as_json: bool, floats: Any = None) -> int:
    """Print the summary (or JSON) and return the exit status: 0 holds, 1 does not. With --floats, the
    largest change made is reported too."""
    status = 0 if result.holds else 1
    if as_json:
        out = result.as_json()
        if floats is not None and floats.allowed:
            out["floats"] = floats.as_json()
        _print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        _print(result.summary())
        if floats is not None and floats.words():
            _print(floats.words())
    return status


def _floats(args: argparse.Namespace) -> Any:
    from privclaims._common import Floats

    return Floats(bool(getattr(args, "floats", False)))


def _sensitive(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


# ------------------------------------------------------------------------------------------ handlers


def _dp_check(a: argparse.Namespace) -> int:
    from privclaims import dp

    fl = _floats(a)
    m = dp.load_mechanism(a.mechanism, floats=fl)
    r = dp.check(m, a.epsilon, a.delta, a.notion, a.quantifier, max_work=a.max_work)
    return _emit(r, a.json, fl)


def _maskit_common(a: argparse.Namespace) -> tuple[Any, Any, Any]:
    from privclaims import maskit

    fl = _floats(a)
    chain = maskit.load_chain(a.chain, floats=fl)
    pol = maskit.load_policy(a.policy, chain, floats=fl) if getattr(a, "policy", None) is not None else None
    return chain, pol, fl


def _maskit_check(a: argparse.Namespace) -> int:
    from privclaims import maskit

    chain, pol, fl = _maskit_common(a)
    return _emit(maskit.check(chain, _sensitive(a.sensitive), a.delta, pol, fast=a.fast), a.json, fl)


def _maskit_search(a: argparse.Namespace) -> int:
    from privclaims import maskit

    chain, _, fl = _maskit_common(a)
    return _emit(maskit.search(chain, _sensitive(a.sensitive), a.delta, a.grid, optimum=a.optimum), a.json, fl)


def _maskit_filter(a: argparse.Namespace) -> int:
    from privclaims import maskit

    chain, pol, fl = _maskit_common(a)
    streams = maskit.load_streams(a.streams, chain)
    r = maskit.filter_streams(chain, streams, _sensitive(a.sensitive), a.delta, a.check, pol, grid=a.grid, seed=a.seed)
    return _emit(r, a.json, fl)


def _ads_greedy(a: argparse.Namespace) -> int:
    from privclaims import ads

    fl = _floats(a)
    inst = ads.load_instance(a.instance, floats=fl)
    return _emit(ads.greedy(inst, a.k, a.optimum), a.json, fl)


def _count_run(a: argparse.Namespace) -> int:
    from privclaims import count

    r = count.run(a.users, a.dropout, a.epsilon, a.delta, protocol=a.protocol, bits=a.bits, drop=a.drop,
                  ones=a.ones, sigma2=a.sigma2, seed=a.seed)
    return _emit(r, a.json)


def _zealous_params(a: argparse.Namespace) -> int:
    from privclaims import zealous

    return _emit(zealous.params(a.users, a.m, a.epsilon, a.delta, a.tau_prime, lam=a.lam, tau=a.tau), a.json)


def _zealous_publish(a: argparse.Namespace) -> int:
    from privclaims import zealous

    r = zealous.publish(a.log, a.kind, a.epsilon, a.delta, a.m, seed=a.seed, engine=a.engine, lam=a.lam, tau=a.tau,
                        tau_prime=a.tau_prime, session_gap=a.session_gap, max_users=a.max_users)
    if a.tsv and not a.json:
        if r.released:
            _print(r.tsv())
        else:
            print(f"privclaims zealous publish: nothing released: {r.why_none()}", file=sys.stderr)
        if not r.certified:
            print(f"privclaims zealous publish: NOT certified: {r.why_not_certified()}", file=sys.stderr)
        return 0 if r.holds else 1
    return _emit(r, a.json)


def _querygen(a: argparse.Namespace) -> int:
    from privclaims import querygen

    t = querygen.load_table(a.table)
    r = querygen.generalize(t, querygen.parse_query(a.query), a.target, a.gmin, a.strategy, seed=a.seed,
                            strict=a.strict)
    return _emit(r, a.json)


# ------------------------------------------------------------------------------------------ parser


def _epilog(formats: Sequence[str], *, eps: str | None = None, floats: bool = False) -> str:
    """A subcommand's epilog from what it accepts: its input formats (generated from their declarations)
    and the number rules of its own options."""
    from privclaims import formats as fm

    parts = [fm.describe(f) for f in formats]
    rules = [NUMBERS] + ([EPS_LN] if eps == "ln" else [EPS_RATIONAL] if eps == "rational" else [])
    if any(f in fm.JSON_FORMATS for f in formats):
        rules.append(JSON_NUMBERS)
    if floats:
        rules.append(FLOATS)
    return "\n\n".join(parts + [" ".join(rules)])


def _cmd(sub: Any, name: str, handler: Callable, help: str, formats: Sequence[str] = (), *, eps: str | None = None,
         floats: bool = False) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help, description=help, epilog=_epilog(formats, eps=eps, floats=floats),
                       formatter_class=_Formatter)
    p.set_defaults(handler=handler)
    p.add_argument("--json", action="store_true", help="print the result (and any error) as JSON")
    if floats:
        p.add_argument("--floats", action="store_true",
                       help="renormalise distributions of JSON numbers summing to 1 within 10^-9 (see below)")
    return p


def _eps(p: argparse.ArgumentParser, kind: str) -> None:
    if kind == "ln":
        p.add_argument("--epsilon", required=True, help="ε >= 0: a rational such as 1/2, or ln of one such as 'ln(3)'")
    else:
        p.add_argument("--epsilon", required=True, help="ε > 0: a rational such as 1/2 or 0.5")


def _seed(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--seed", type=int, default=0, help=f"seed of {what}, an integer in [0, 2^63)")


@functools.lru_cache(maxsize=1)
def _the_parser() -> argparse.ArgumentParser:
    """:func:`build_parser`'s parser, built once per process for :func:`main`: building it takes ~3 ms (a test run
    calls main in-process ~900 times), and parsing leaves a parser as it was (each call gets a new namespace)."""
    return build_parser()


def build_parser() -> argparse.ArgumentParser:
    from privclaims import formats as fm

    ap = _Parser(prog="privclaims", formatter_class=argparse.RawDescriptionHelpFormatter,
                 description="Exact privacy verdicts with witnesses on your own instance, and the claims ledger.",
                 epilog="Exit status: 0 the property holds, 1 it does not (witness printed), 2 bad input.\n"
                        "privclaims SYSTEM ACTION --help shows what the subcommand reads (input formats: "
                        + ", ".join([*fm.JSON_FORMATS, *fm.TEXT_FORMATS]) + ").\n"
                        "Ledger: privclaims ledger [--quick] [--area A] ... (also: privclaims --list); "
                        "privclaims show ID [--from REPORT.json].")
    systems = ap.add_subparsers(dest="system", metavar="SYSTEM", parser_class=_Parser)

    dp = systems.add_parser("dp", help="finite mechanisms: ε-DP, probabilistic DP, indistinguishability")
    dps = dp.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(dps, "check", _dp_check, "exact verdicts, least ε / δ and the witness", ["mechanism"], eps="ln", floats=True)
    p.add_argument("mechanism", metavar="MECH.json", help="the mechanism (format below)")
    _eps(p, "ln")
    p.add_argument("--delta", help="δ in [0, 1] (needed for the pdp and indist verdicts; without it their least δ is shown)")
    p.add_argument("--notion", choices=("dp", "pdp", "indist", "all"), default="all",
                   help="which definition: ε-DP (Def. 2), probabilistic DP (Def. 3), indistinguishability (Def. 4)")
    p.add_argument("--quantifier", choices=("pair", "input"), default="pair",
                   help="probabilistic DP: split per neighbouring pair (thesis) or per input (003)")
    p.add_argument("--max-work", dest="max_work", type=int, default=2 * 10**5,
                   help="size guard: ordered neighbour pairs x outputs x notions (about 10^4 a second with a rational "
                        "ε, 10^6 with ε = ln(r))")

    mk = systems.add_parser("maskit", help="MaskIt: δ-privacy of context streams")
    mks = mk.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    for name, handler, text, formats in (
            ("check", _maskit_check, "is a suppression policy (default MaskSensitive) δ-private? exact max gain + witness",
             ["chain", "policy"]),
            ("search", _maskit_search, "the best policy found by the greedy search on a grid (or the optimum with "
                                        "--optimum), re-checked exactly (exit 1 if it can release nothing)", ["chain"]),
            ("filter", _maskit_filter, "release your streams through the simulatable/probabilistic/hybrid check",
             ["chain", "streams", "policy"])):
        p = _cmd(mks, name, handler, text, formats, floats=True)
        p.add_argument("chain", metavar="CHAIN.json", help="the context chain (format below)")
        if name == "filter":
            p.add_argument("streams", metavar="STREAM.csv", help="the days to filter (format below)")
            p.add_argument("--check", choices=("simulatable", "probabilistic", "hybrid"), default="simulatable",
                           help="which MaskIt check releases the contexts (hybrid: the one of larger expected utility)")
            _seed(p, "the probabilistic check's coins")
        p.add_argument("--sensitive", required=True, help="sensitive contexts, comma-separated")
        p.add_argument("--delta", required=True, help="δ in (0, 1)")
        if name != "search":
            p.add_argument("--policy", metavar="P.json", help="suppression policy (check: default MaskSensitive; "
                                                                 "filter: default the searched one)")
        if name != "check":
            p.add_argument("--grid", type=int, default=4, help="search grid {0, 1/d, ..., 1}: d in [1, 64]")
        if name == "check":
            p.add_argument("--fast", action="store_true",
                           help="the float twin (for chains past the exact size guard): values ≈, 'private' only "
                                "beyond rounding doubt")
        if name == "search":
            p.add_argument("--optimum", action="store_true",
                           help="the exhaustive search over all grid policies (at most 4,096 of them)")

    ad = systems.add_parser("ads", help="private ad delivery: Greedy and the optimum")
    ads_ = ad.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(ads_, "greedy", _ads_greedy, "Greedy's ads and revenue (exit 1 with --optimum if Greedy is not optimal)",
             ["ads"], floats=True)
    p.add_argument("instance", metavar="INSTANCE.json", help="the ad instance (format below)")
    p.add_argument("--k", type=int, required=True, help="number of ads to send, in [1, number of ads]")
    p.add_argument("--optimum", action="store_true", help="also the brute-force optimum (at most 10^6 ad sets)")

    ct = systems.add_parser("count", help="distributed counting with noise shares")
    cts = ct.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(cts, "run", _count_run, "run the protocol end to end; exit 1 if it aborts or its release (the sum of the discrete shares) "
             "is not certified private",
             eps="rational")
    p.add_argument("--users", type=int, required=True, help="N, in [2, 100000]")
    p.add_argument("--dropout", required=True, help="tolerated dropout fraction t in [0, 1)")
    _eps(p, "rational")
    p.add_argument("--delta", required=True, help="δ in (0, 1)")
    p.add_argument("--protocol", choices=("paillier", "pads"), default="paillier",
                   help="the thesis's Paillier protocol or 002's one-time pads")
    p.add_argument("--bits", type=int, default=2048, help="Paillier key length, in [128, 8192]")
    p.add_argument("--drop", type=int, default=0, help="how many users actually drop out")
    p.add_argument("--ones", type=int, help="how many users hold b = 1 (default N/2)")
    p.add_argument("--sigma2", help="σ² > 0; each share is N_Z(0, σ²/((1 - t) N - 1)) (default: Theorem 1's, rounded up to 1/1000)")
    _seed(p, "the noise shares")

    ze = systems.add_parser("zealous", help="ZEALOUS search-log publishing")
    zes = ze.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    for name, handler, text, formats in (
            ("params", _zealous_params, "λ, τ, τ′ and the (ε′, δ′) levels; exit 1 if λ or τ′ is too small", []),
            ("publish", _zealous_publish, "the sanitized histogram; exit 1 if nothing is released or the release is not "
             "certified (with why)", ["log"])):
        p = _cmd(zes, name, handler, text, formats, eps="rational")
        if name == "publish":
            p.add_argument("log", metavar="LOG", help="the search log (format below)")
            p.add_argument("--kind", choices=("queries", "keywords", "clicks", "query_pairs"), required=True,
                           help="which items to count")
            p.add_argument("--max-users", dest="max_users", type=int,
                           help="a public bound on the number of users; τ′ is computed for it (without it τ′ comes from "
                                "the log's own count, which depends on the data: the release is then not certified)")
        else:
            p.add_argument("--users", type=int, required=True, help="U, the number of users (>= 1)")
        _eps(p, "rational")
        p.add_argument("--delta", required=True, help="δ in (0, 1)")
        p.add_argument("--m", required=True, help="items per user, a positive integer")
        p.add_argument("--lambda", dest="lam", help="the noise scale λ > 0 (default 2m/ε; Theorem 14 needs λ >= 2m/ε)")
        p.add_argument("--tau", help="the first threshold τ, a positive integer (default ⌈2m/ε⌉, Proposition 12)")
        p.add_argument("--tau-prime", dest="tau_prime",
                       help="the second threshold τ′ > 0, possibly below τ (default: the least one meeting (6.5) - rounded up to 1/1000 - and the conditions of the release's 1/1024-grid noise, for λ and τ)")
        if name == "publish":
            _seed(p, "the selection and the noise")
            p.add_argument("--engine", choices=("auto", "python", "duckdb", "dask"), default="auto",
                           help="where Steps 1-2 run; the same seed gives the same release on each (auto: duckdb, "
                                "which reads the file or folder itself)")
            p.add_argument("--session-gap", dest="session_gap", type=int, default=1800,
                           help="query pairs: two subsequent searches more than this many seconds apart are in "
                                "different sessions (at most this many apart: the same session)")
            p.add_argument("--tsv", action="store_true", help="print only the released histogram as TSV")

    qg = systems.add_parser("querygen", help="the query generalizer")
    qgs = qg.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(qgs, "generalize", _querygen, "generalise a query until G(Q̂, a) >= G_min", ["table"])
    p.add_argument("table", metavar="TABLE.csv", help="the auxiliary table (format below)")
    p.add_argument("--query", required=True, help="the query's fixed values, e.g. zip=13053,sex=F")
    p.add_argument("--target", required=True, help="the secret attribute a")
    p.add_argument("--gmin", required=True, help="G_min >= 1, e.g. 3/2")
    p.add_argument("--strategy", choices=("brute", "best", "worst", "random", "all"), default="best",
                   help="Brute-Force, Best-Fit, Worst-Fit, Random-Fit or all (all: Brute-Force only when it fits)")
    p.add_argument("--strict", action="store_true",
                   help="require G(Q̂, a) > G_min (004 §4: the adversary must guess 'more than G_min times on "
                        "average'); default G >= G_min as §4 defines it, a result at G = G_min is marked")
    _seed(p, "Random-Fit and the ties")

    systems.add_parser("ledger", help="the claims ledger (= python -m privclaims ledger; see privclaims ledger --help)",
                       add_help=False)
    systems.add_parser("show", help="one claim's verdict and readings: privclaims show ID [--from REPORT.json]",
                       add_help=False)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """``privclaims ...``. Its ``ledger`` command is :func:`privclaims.checks.cli.main`, which sets
    ``$HYPOTHESIS_NO_PLUGINS`` and raises the collector's thresholds for the rest of the calling process."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--version"]:
        from importlib.metadata import version

        print(f"privclaims {version('privclaims')}")
        return 0
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        from privclaims.checks.cli import main as ledger

        return ledger(argv)
    if argv and argv[0] == "ledger":
        from privclaims.checks.cli import main as ledger

        return ledger(argv[1:])
    if argv and argv[0] == "show":
        from privclaims.checks.cli import main as ledger

        if len(argv) >= 2 and argv[1] in ("-h", "--help"):
            print("usage: privclaims show ID [--from REPORT.json] [--project DIR]\n\n"
                  "Print one claim whole: statement, definitions and readings, parts, verdict and pin, why, witness,\n"
                  "evidence and audit note (running its check, or read from --from REPORT.json).")
            return 0
        if len(argv) < 2 or argv[1].startswith("-"):
            print("privclaims show: error: give a claim ID: privclaims show ID [--from REPORT.json]", file=sys.stderr)
            return 2
        return ledger(["--show", argv[1], *argv[2:]])
    as_json = "--json" in argv
    _Parser.json_errors = as_json
    try:
        ap = _the_parser()
        if not argv:
            ap.print_help()
            return 0
        try:
            args = ap.parse_args(argv)
        except SystemExit as exc:  # --help (0) or a usage error (2, already printed)
            return int(exc.code or 0)
        try:
            return args.handler(args)
        except (InvalidInput, UndecidedComparison) as exc:
            msg = " ".join(str(exc).split())
        except BrokenPipeError:
            _quiet_stdout()
            return 0
        except OSError as exc:
            msg = str(exc)
        try:
            _fail(f"privclaims {args.system} {args.action}: error: {msg}", as_json)
        except SystemExit as exc:
            return int(exc.code)
        return 2  # pragma: no cover
    finally:
        _Parser.json_errors = False


if __name__ == "__main__":
    raise SystemExit(main())
