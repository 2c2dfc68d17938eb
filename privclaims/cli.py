"""The ``privclaims`` command line: exact checks of your own instances, and the claims ledger.

Exit status: 0 when the stated property holds, 1 when it does not (the witness is printed), 2 on bad
input (one line on stderr naming the problem; never a traceback). ``--json`` prints the result as
JSON instead of the plain-words summary.

``privclaims ledger ...`` runs the claims ledger (= ``python -m privclaims ledger ...``); for backward
compatibility ``privclaims --list`` and any first argument starting with ``-`` do too.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Sequence

from privclaims.theory.errors import InvalidInput, UndecidedComparison

FORMATS = {
    "mechanism": """MECH.json — a finite mechanism, probabilities as exact strings, each row summing to 1:
  {"inputs": {"yes": {"yes": "3/4", "no": "1/4"}, "no": {"yes": "1/4", "no": "3/4"}},
   "neighbours": [["yes", "no"]]}""",
    "chain": """CHAIN.json — a time-inhomogeneous Markov chain over contexts (T = 1 + number of step matrices):
  {"contexts": ["home", "office", "gym", "hospital"],
   "initial": ["1/2", "1/4", "1/8", "1/8"],                 Pr[X_1 = c]
   "steps": [[[row of home], [row of office], ...], ...]}   Pr[X_t = c_j | X_{t-1} = c_i], t = 2..T
P.json — a suppression policy: {"p": {"hospital": "1"}} (same at every t) or {"p": [[p_1^1..p_n^1], ...]}.
STREAM.csv — one day per line, T context labels separated by commas (# lines are comments).""",
    "ads": """INSTANCE.json — {"contexts": [...], "weights": [Pr[c|ĉ] per context],
  "ads": [{"name": "coffee", "ctr": [CTR per context], "payment": "1" or [one per context]}, ...],
  "threshold": optional CTR threshold}""",
    "log": """LOG — the AOL 2006 TSV (header AnonID Query QueryTime ItemRank ClickURL; time YYYY-MM-DD HH:MM:SS)
or a folder in the per-user layout (one file per user: blocks "query<TAB>time" then clicked urls).""",
    "table": """TABLE.csv — a header row of attribute names, then one tuple per row.""",
}
EXACT = ("Numbers are exact: '1/3', '0.25', '2'; ε may be 'ln(3)'. JSON floats are refused unless --floats "
         "(converted exactly, rows summing to 1 within 10^-9 renormalised, the largest change reported).")


def _emit(result: Any, as_json: bool, floats: Any = None) -> int:
    """Print the summary (or JSON) and return the exit status: 0 holds, 1 does not. With --floats, the
    largest change made by the exact conversion is reported too."""
    if as_json:
        out = result.as_json()
        if floats is not None and floats.allowed:
            out["floats"] = floats.as_json()
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(result.summary())
        if floats is not None and floats.words():
            print(floats.words())
    return 0 if result.holds else 1


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
    r = dp.check(m, a.epsilon, a.delta, a.notion, a.quantifier)
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
    return _emit(maskit.check(chain, _sensitive(a.sensitive), a.delta, pol), a.json, fl)


def _maskit_search(a: argparse.Namespace) -> int:
    from privclaims import maskit

    chain, _, fl = _maskit_common(a)
    return _emit(maskit.search(chain, _sensitive(a.sensitive), a.delta, a.grid), a.json, fl)


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

    return _emit(zealous.params(a.users, a.m, a.epsilon, a.delta, a.tau_prime), a.json)


def _zealous_publish(a: argparse.Namespace) -> int:
    from privclaims import zealous

    r = zealous.publish(a.log, a.kind, a.epsilon, a.delta, a.m, seed=a.seed, engine=a.engine)
    if a.tsv and r.released:
        print(r.tsv())
        return 0
    return _emit(r, a.json)


def _querygen(a: argparse.Namespace) -> int:
    from privclaims import querygen

    t = querygen.load_table(a.table)
    r = querygen.generalize(t, querygen.parse_query(a.query), a.target, a.gmin, a.strategy, seed=a.seed)
    return _emit(r, a.json)


# ------------------------------------------------------------------------------------------ parser


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _cmd(sub: Any, name: str, handler: Callable, help: str, fmt: str = "", **kw: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help, description=help, epilog="\n\n".join(x for x in (fmt, EXACT) if x),
                       formatter_class=argparse.RawDescriptionHelpFormatter, **kw)
    p.set_defaults(handler=handler)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="privclaims", formatter_class=argparse.RawDescriptionHelpFormatter,
                 description="Exact privacy verdicts with witnesses on your own instance, and the claims ledger.",
                 epilog="Exit status: 0 the property holds, 1 it does not (witness printed), 2 bad input.\n"
                        "Ledger: privclaims ledger [--quick] [--area A] ... (also: privclaims --list); "
                        "privclaims show ID [--from REPORT.json].\n\n" + "\n\n".join(FORMATS.values()))
    systems = ap.add_subparsers(dest="system", metavar="SYSTEM", parser_class=_Parser)

    dp = systems.add_parser("dp", help="finite mechanisms: ε-DP, probabilistic DP, indistinguishability")
    dps = dp.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(dps, "check", _dp_check, "exact verdicts, least ε / δ and the witness", FORMATS["mechanism"])
    p.add_argument("mechanism", metavar="MECH.json")
    p.add_argument("--epsilon", required=True, help="ε, e.g. 'ln(3)' or '1/2'")
    p.add_argument("--delta", help="δ in [0, 1] (needed for pdp and indist verdicts)")
    p.add_argument("--notion", choices=("dp", "pdp", "indist", "all"), default="all")
    p.add_argument("--quantifier", choices=("pair", "input"), default="pair",
                   help="probabilistic DP: split per neighbouring pair (thesis) or per input (003)")
    p.add_argument("--floats", action="store_true", help="accept float probabilities (converted exactly, renormalised)")

    mk = systems.add_parser("maskit", help="MaskIt: δ-privacy of context streams")
    mks = mk.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    for name, handler, text in (
            ("check", _maskit_check, "is a suppression policy (default MaskSensitive) δ-private? exact max gain + witness"),
            ("search", _maskit_search, "best policy found by the greedy search on a grid, re-checked exactly "
                                        "(exit 1 if it can release nothing)"),
            ("filter", _maskit_filter, "release your streams through the simulatable/probabilistic/hybrid check")):
        p = _cmd(mks, name, handler, text, FORMATS["chain"])
        p.add_argument("chain", metavar="CHAIN.json")
        if name == "filter":
            p.add_argument("streams", metavar="STREAM.csv")
            p.add_argument("--check", choices=("simulatable", "probabilistic", "hybrid"), default="simulatable")
            p.add_argument("--seed", type=int, default=0, help="seed of the probabilistic check's coins")
        p.add_argument("--sensitive", required=True, help="sensitive contexts, comma-separated")
        p.add_argument("--delta", required=True, help="δ in (0, 1)")
        if name != "search":
            p.add_argument("--policy", metavar="P.json", help="suppression policy (check: default MaskSensitive; "
                                                                 "filter: default the searched one)")
        if name != "check":
            p.add_argument("--grid", type=int, default=4, help="search grid {0, 1/d, ..., 1} (default d = 4)")
        p.add_argument("--floats", action="store_true", help="accept float probabilities (converted exactly, renormalised)")

    ad = systems.add_parser("ads", help="private ad delivery: Greedy and the optimum")
    ads_ = ad.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(ads_, "greedy", _ads_greedy, "Greedy's ads and revenue (exit 1 with --optimum if Greedy is not optimal)",
             FORMATS["ads"])
    p.add_argument("instance", metavar="INSTANCE.json")
    p.add_argument("--k", type=int, required=True, help="number of ads to send")
    p.add_argument("--optimum", action="store_true", help="also the brute-force optimum (small instances)")
    p.add_argument("--floats", action="store_true", help="accept float numbers (converted exactly, renormalised)")

    ct = systems.add_parser("count", help="distributed counting with noise shares")
    cts = ct.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(cts, "run", _count_run, "run the protocol end to end; exit 1 if it aborts or σ² is not private")
    p.add_argument("--users", type=int, required=True, help="N")
    p.add_argument("--dropout", required=True, help="tolerated dropout fraction t in [0, 1)")
    p.add_argument("--epsilon", required=True)
    p.add_argument("--delta", required=True)
    p.add_argument("--protocol", choices=("paillier", "pads"), default="paillier")
    p.add_argument("--bits", type=int, default=2048, help="Paillier key length (default 2048)")
    p.add_argument("--drop", type=int, default=0, help="how many users actually drop out (default 0)")
    p.add_argument("--ones", type=int, help="how many users hold b = 1 (default N/2)")
    p.add_argument("--sigma2", help="noise variance σ² (default: Theorem 1's, rounded up to 1/1000)")
    p.add_argument("--seed", type=int, default=0)

    ze = systems.add_parser("zealous", help="ZEALOUS search-log publishing")
    zes = ze.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(zes, "params", _zealous_params, "λ, τ, τ′ and the (ε′, δ′) levels; exit 1 if --tau-prime is too small")
    p.add_argument("--users", type=int, required=True, help="U")
    p.add_argument("--m", required=True, help="items per user")
    p.add_argument("--epsilon", required=True)
    p.add_argument("--delta", required=True)
    p.add_argument("--tau-prime", dest="tau_prime", help="check this τ′ instead of computing the least one")
    p = _cmd(zes, "publish", _zealous_publish, "the sanitized histogram; exit 1 if nothing is released (with why)",
             FORMATS["log"])
    p.add_argument("log", metavar="LOG")
    p.add_argument("--kind", choices=("queries", "keywords", "clicks", "query_pairs"), required=True)
    p.add_argument("--epsilon", required=True)
    p.add_argument("--delta", required=True)
    p.add_argument("--m", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--engine", choices=("python", "duckdb", "dask"), default="python",
                   help="where Steps 1-2 run; the same seed gives the same release on each")
    p.add_argument("--tsv", action="store_true", help="print only the released histogram as TSV")

    qg = systems.add_parser("querygen", help="the query generalizer")
    qgs = qg.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    p = _cmd(qgs, "generalize", _querygen, "generalise a query until G(Q̂, a) >= G_min", FORMATS["table"])
    p.add_argument("table", metavar="TABLE.csv")
    p.add_argument("--query", required=True, help="e.g. zip=13053,sex=F")
    p.add_argument("--target", required=True, help="the secret attribute a")
    p.add_argument("--gmin", required=True, help="G_min, e.g. 3/2")
    p.add_argument("--strategy", choices=("brute", "best", "worst", "random", "all"), default="best")
    p.add_argument("--seed", type=int, default=0)

    systems.add_parser("ledger", help="the claims ledger (= python -m privclaims ledger; see privclaims ledger --help)",
                       add_help=False)
    systems.add_parser("show", help="one claim's verdict and readings: privclaims show ID [--from REPORT.json]",
                       add_help=False)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
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
    ap = build_parser()
    if not argv:
        ap.print_help()
        return 0
    args = ap.parse_args(argv)
    try:
        return args.handler(args)
    except (InvalidInput, UndecidedComparison) as exc:
        msg = " ".join(str(exc).split())
        print(f"privclaims {args.system} {args.action}: error: {msg}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"privclaims {args.system} {args.action}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
