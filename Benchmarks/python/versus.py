"""Glint against PocketBase on the same machine, in one sitting (Benchmarks/run.sh versus).

PocketBase is set up here (a public `posts` collection with 100,000 records written into its
SQLite file, a user of its `users` collection); the suite was seeded by run.sh. Then the three
read-path requests alternate, ours then PocketBase's, ROUNDS times: the feed page, one item by
id, and token refresh (ours rotating, through the gateway). Each run prints req/s, p50, p99 and
the CPU each process spent per request (from /proc/<pid>/stat; wrk's own from its rusage); the summary
gives the ratios.
"""
import json
import os
import re
import resource
import sqlite3
import subprocess
import sys
import urllib.request

ENV = os.environ
DURATION, CONCURRENCY, ROUNDS = ENV.get("DURATION", "10"), ENV.get("CONCURRENCY", "16"), int(ENV.get("ROUNDS", "3"))
TICK_US = 1_000_000 / os.sysconf("SC_CLK_TCK")


def call(method, url, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"{}")


def pocketbase_setup(base, data_file, posts):
    admin = call("POST", base + "/api/collections/_superusers/auth-with-password",
                 {"identity": ENV["PB_ADMIN"], "password": ENV["PB_PASSWORD"]})["token"]
    # Public list and view rules, as an app's feed would have them; `created` indexed for the sort.
    call("POST", base + "/api/collections", {
        "name": "posts", "type": "base", "listRule": "", "viewRule": "",
        "fields": [{"name": "title", "type": "text"}, {"name": "content", "type": "text"}, {"name": "category", "type": "text"},
                   {"name": "price", "type": "number"}, {"name": "files", "type": "json"},
                   {"name": "created", "type": "autodate", "onCreate": True}, {"name": "updated", "type": "autodate", "onCreate": True, "onUpdate": True}],
        "indexes": ["CREATE INDEX idx_posts_created ON posts (created)"],
    }, {"Authorization": admin})
    database = sqlite3.connect(data_file, timeout=30)
    database.executemany(
        "INSERT INTO posts (id, title, content, category, price, files, created, updated) VALUES (?, ?, ?, ?, 0, '[]', ?, ?)",
        ((f"p{i:014d}", f"title {i}", f"content #tag{i % 100}", f"c{i % 5}", date, date)
         for i in range(1, posts + 1) for date in [f"2023-11-{1 + i // 4000 % 28:02d} {i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z"]))
    database.commit()
    database.close()
    call("POST", base + "/api/collections/users/records",
         {"email": "reader@bench.example", "password": "bench12345!", "passwordConfirm": "bench12345!"}, {"Authorization": admin})
    return call("POST", base + "/api/collections/users/auth-with-password", {"identity": "reader@bench.example", "password": "bench12345!"})["token"]


def ticks(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def wrk(url, processes, arguments, script_arguments):
    """One run; wrk takes the URL before the script's own arguments (after `--`)."""
    before = {name: ticks(pid) for name, pid in processes.items()}
    client = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = subprocess.run(["wrk", "-t1", "-c" + CONCURRENCY, "-d" + DURATION + "s", "--latency", *arguments, url, *script_arguments],
                            capture_output=True, text=True, check=True).stdout
    spent = {name: ticks(pid) - before[name] for name, pid in processes.items()}
    # wrk shares the two cores with the servers: its own CPU per request beside theirs.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent["wrk"] = (after.ru_utime + after.ru_stime - client.ru_utime - client.ru_stime) * 1_000_000 / TICK_US
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    failed = re.search(r"non-2\d\d answers: (\d+)", output)

    def latency(percentile):
        found = re.search(rf"^\s+{percentile}%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M)
        if not found:
            raise RuntimeError(f"no {percentile}% latency in wrk's output:\n{output}")
        value, unit = found.groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)), "p50": latency(50), "p99": latency(99),
            "failed": int(failed.group(1)) if failed else 0,
            "cpu": {name: value * TICK_US / max(requests, 1) for name, value in spent.items()}}


def refresh_pairs(gateway, key, count=64):
    pairs = []
    for _ in range(count):
        answer = call("POST", gateway + "/v1/users/login", {"email": "seller@bench.example", "password": "bench123!"}, {"SeSACKey": key})
        pairs.append(f"{answer['accessToken']} {answer['refreshToken']}")
    path = ENV["DATA"] + "/pairs.txt"
    with open(path, "w") as file:
        file.write("\n".join(pairs) + "\n")
    return path


def main():
    gateway, key, token, lua = ENV["GW"], ENV["KEY"], ENV["TOKEN"], ENV["LUA"]
    pocketbase = ENV["PB"]
    pb_token = pocketbase_setup(pocketbase, ENV["PB_DATA"] + "/data.db", int(ENV.get("POSTS", "100000")))
    ours = {"gateway": ENV["GATEWAY_PID"], "market-svc": ENV["MARKET_PID"], "auth-svc": ENV["AUTH_PID"]}
    theirs = {"pocketbase": ENV["PB_PID"]}
    signed = ["-H", "SeSACKey: " + key, "-H", "Authorization: " + token]
    cases = {
        "feed page (20)": (
            lambda: (gateway + "/v1/posts?limit=20", ours, "-s", lua + "/get.lua", *signed),
            lambda: (pocketbase + "/api/collections/posts/records?perPage=20&sort=-created&skipTotal=1", theirs, "-s", lua + "/get.lua")),
        "item by id": (
            lambda: (gateway + "/v1/posts/" + ENV["POST_ID"], ours, "-s", lua + "/get.lua", *signed),
            lambda: (pocketbase + "/api/collections/posts/records/p00000000004242", theirs, "-s", lua + "/get.lua")),
        "token refresh": (
            lambda: (gateway + "/v1/auth/refresh", ours, "-s", lua + "/refresh.lua", "-H", "SeSACKey: " + key, "--", refresh_pairs(gateway, key)),
            lambda: (pocketbase + "/api/collections/users/auth-refresh", theirs, "-s", lua + "/post.lua", "-H", "Authorization: " + pb_token, "--", "{}")),
    }
    results = {name: {"ours": [], "theirs": []} for name in cases}
    for round in range(1, ROUNDS + 1):
        for name, (mine, other) in cases.items():
            for side, make in (("ours", mine), ("theirs", other)):
                url, processes, *arguments = make()
                split = arguments.index("--") if "--" in arguments else len(arguments)
                result = wrk(url, processes, arguments[:split], arguments[split:])
                results[name][side].append(result)
                cpu = ", ".join(f"{process} {value:.0f} µs" for process, value in result["cpu"].items())
                print(f"round {round} {name:16} {side:6} {result['rps']:8.0f} req/s  p50 {result['p50']:6.2f} ms  p99 {result['p99']:6.2f} ms"
                      f"  failed {result['failed']}  CPU/request: {cpu}", flush=True)
    print("\nsummary (ours ÷ PocketBase, per round; through the gateway)")
    for name, sides in results.items():
        ratios = [o["rps"] / t["rps"] for o, t in zip(sides["ours"], sides["theirs"])]
        p99 = [f"{o['p99']:.1f}/{t['p99']:.1f}" for o, t in zip(sides["ours"], sides["theirs"])]
        print(f"  {name:16} req/s ratio {' '.join(f'{r:.2f}' for r in ratios)}   p99 ms ours/theirs {' '.join(p99)}")


if __name__ == "__main__":
    sys.exit(main())
