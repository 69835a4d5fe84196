#!/usr/bin/env python3
"""A seeded reliability run of `tunnelvision verify`: copies of a bundle with bytes changed,
each verified. Counts what verify did with each: refused it (exit 1), accepted it (exit 0), or
crashed (any other exit, a signal). An accepted copy must read, to Python's zipfile, as the
same entries with the same bytes as the original: otherwise it is a false accept.

  verify-mutations.py TUNNELVISION BUNDLE COUNT SEED [--json]

Two kinds of copies, half each: a byte of the archive replaced anywhere (the manifest left as
it is), and a byte of one entry's content replaced with the archive rebuilt and manifest.json
recomputed to fit (what a forger would do without the signing key)."""
import hashlib, io, json, os, random, subprocess, sys, tempfile, zipfile

def entries(data):
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        return [(i.filename, z.read(i)) for i in z.infolist()]
    except Exception:
        return None

def rebuilt(original, name, position, value):
    src = zipfile.ZipFile(io.BytesIO(original))
    contents = {i.filename: src.read(i) for i in src.infolist()}
    body = bytearray(contents[name]); body[position] = value; contents[name] = bytes(body)
    manifest = json.loads(contents["manifest.json"])
    for f in manifest["files"]:
        if f["name"] == name:
            f["byteCount"] = len(contents[name]); f["sha256"] = hashlib.sha256(contents[name]).hexdigest()
    contents["manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for i in src.infolist():
            info = zipfile.ZipInfo(i.filename, date_time=i.date_time)
            info.compress_type = i.compress_type; info.external_attr = i.external_attr
            info.create_system = i.create_system
            z.writestr(info, contents[i.filename])
    return out.getvalue()

def main():
    tool, bundle, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    original = open(bundle, "rb").read()
    base = entries(original)
    names = [n for n, _ in base if n not in ("manifest.json", "signature.json")]
    rng = random.Random(seed)
    tally = {"refused": 0, "accepted same": 0, "false accept": 0, "crashed": 0}
    # Copies rebuilt with the manifest recomputed, by entry: refused, and accepted (what only a
    # signature protects, or what verify does not derive again).
    by_entry = {}
    examples = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "copy.zip")
        for k in range(count):
            if k % 2 == 0:
                data = bytearray(original); at = rng.randrange(len(data))
                data[at] = (data[at] + rng.randrange(1, 256)) % 256; data = bytes(data)
                what = "archive byte %d" % at
            else:
                name = rng.choice(names); body = dict(base)[name]
                at = rng.randrange(len(body)); value = (body[at] + rng.randrange(1, 256)) % 256
                data = rebuilt(original, name, at, value); what = "%s byte %d, manifest recomputed" % (name, at)
            open(path, "wb").write(data)
            r = subprocess.run([tool, "verify", path], capture_output=True)
            if k % 2 == 1:
                e = by_entry.setdefault(name, {"refused": 0, "accepted": 0})
                e["refused" if r.returncode == 1 else "accepted"] += 1
            if r.returncode == 1:
                tally["refused"] += 1
            elif r.returncode == 0:
                if entries(data) == base and data == original:
                    tally["accepted same"] += 1
                elif entries(data) == base:
                    tally["accepted same"] += 1
                elif k % 2 == 1:
                    tally.setdefault("accepted, rebuilt with the manifest recomputed", 0)
                    tally["accepted, rebuilt with the manifest recomputed"] += 1
                    if name not in ("report.pdf", "capture.pcapng"):
                        body = dict(entries(data))[name]
                        examples.append("%s (%r -> %r)" % (what, dict(base)[name][max(0, at - 12):at + 12], body[max(0, at - 12):at + 12]))
                else:
                    tally["false accept"] += 1; examples.append(what)
            else:
                tally["crashed"] += 1; examples.append("%s: exit %d" % (what, r.returncode))
    result = {"count": count, "seed": seed, "tally": tally, "rebuiltByEntry": by_entry,
              "examples": examples[:10]}
    print(json.dumps(result, indent=2) if "--json" in sys.argv else
          "%d copies (seed %d): %s\nrebuilt, by entry: %s" % (
              count, seed, ", ".join("%s %d" % kv for kv in tally.items()),
              ", ".join("%s %d/%d refused" % (n, v["refused"], v["refused"] + v["accepted"])
                        for n, v in sorted(by_entry.items()))))
    if examples and "--json" not in sys.argv:
        print("\n".join(examples[:10]))

if __name__ == "__main__":
    main()
