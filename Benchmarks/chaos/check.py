"""The chaos soak's checks: invariants over every recorded call and the database's audit, latency, recovery, memory."""
import datetime
import json
import statistics

from chaos import TAG_ELEMENTS

VERIFY_OPS = ("verify", "replay")
CONSUMING = (200, 422, 410)          # the first consumption of a request answers one of these
STORE_REACHED = (200, 422, 410, 409)  # every one of these counted an attempt in the database
GRACE = 10.0                          # seconds after a fault's end that still count as its window


def epoch(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def percentile(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def policy_tag(policy):
    """The create's tag: which of TAG_ELEMENTS the stored policy asks to retain."""
    found = {}

    def walk(node):
        if isinstance(node, dict):
            ident = node.get("identifier") or node.get("elementIdentifier")
            retain = node.get("intentToRetain")
            if ident in TAG_ELEMENTS and isinstance(retain, bool):
                found[ident] = retain
            for key, value in node.items():
                if key in TAG_ELEMENTS and isinstance(value, bool):
                    found[key] = value
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    try:
        walk(json.loads(policy))
    except ValueError:
        return None
    if len(found) != len(TAG_ELEMENTS):
        return None
    return sum(1 << i for i, e in enumerate(TAG_ELEMENTS) if found[e])


def analyse(chaos, audit):
    args = chaos.args
    calls = chaos.rec.calls
    events = chaos.rec.events
    faults = sorted(chaos.faults, key=lambda f: f["start"])
    broken = {}
    notes = {}

    def breach(name, detail=None):
        broken[name] = broken.get(name, 0) + 1
        if detail is not None:
            notes.setdefault(name, [])
            if len(notes[name]) < 10:
                notes[name].append(detail)

    store_windows = [(f["start"], max(f["end"], f["release"]) + args.store_timeout + GRACE)
                     for f in faults if f["cls"].startswith("pg_") or f["cls"] == "disk_full"]
    all_windows = [(f["start"], max(f["end"], f["release"]) + GRACE) for f in faults]

    def inside(windows, t0, t1):
        return any(t0 <= end and t1 >= start for start, end in windows)

    # While an anchor is removed (from the file's removal until both instances have reloaded it), documents under it
    # are rejected as untrusted: a documented outcome.
    trust_windows = [(f["removed"], max(list(f.get("readded_seen", {}).values()) + [f["readded"]]) + 1.0)
                     for f in faults if f["cls"] == "trust_reload"]
    untrusted_codes = ("issuer.chain_untrusted",)

    # ---- per call: 5xx ----
    for c in calls:
        if c["status"] is not None and c["status"] >= 500:
            if c["status"] != 503 or c.get("code") != "store.unavailable":
                breach("undocumented_5xx", c)
            elif not inside(store_windows, c["t0"], c["t1"]):
                breach("503_outside_store_faults", c)

    # ---- per request ----
    by_rid = {}
    for c in calls:
        if c["op"] in VERIFY_OPS and c["rid"]:
            by_rid.setdefault(c["rid"], []).append(c)
    consumes = {}
    inserted = {}
    for row in audit:
        if row["op"] == "consume":
            consumes[row["id"]] = consumes.get(row["id"], 0) + 1
        else:
            inserted[row["id"]] = row
    states = {}
    codes_422 = {}
    jobs = [j for j in chaos.jobs]
    for job in jobs:
        if job.get("outcome") == "driver_error":
            breach("driver_errors", job.get("error"))
        rid = job.get("rid")
        if not rid:
            states["no_request_created"] = states.get("no_request_created", 0) + 1
            continue
        if rid not in inserted:
            breach("created_without_row", rid)
        expires = epoch(job["expires_at"])
        rcalls = sorted(by_rid.get(rid, []), key=lambda c: c["t0"])
        answered = [c for c in rcalls if c["status"] is not None]
        lost = [c for c in rcalls if c["status"] is None]
        consuming = [c for c in answered if c["status"] in CONSUMING]
        ok = [c for c in answered if c["status"] == 200]
        if len(ok) > 1:
            breach("verified_twice", rid)
        if len(consuming) > 1:
            breach("consumed_twice", rid)
        reached = sum(1 for c in answered if c["status"] in STORE_REACHED)
        extra = consumes.get(rid, 0) - reached
        if extra > len(lost):
            breach("503_consumed", {"rid": rid, "calls": [(c["inst"], c["status"], c.get("err")) for c in rcalls]})
        if extra < 0:
            breach("answer_without_consumption", rid)
        for c in answered:
            if c["status"] == 404 and c["t0"] < expires + args.request_ttl:
                breach("unknown_before_purge", c)
            if c["status"] == 410 and c["t1"] < expires - 1.0:
                breach("expired_early", c)
            if c["status"] == 400:
                breach("malformed", c)
        for c in ok:
            if job["kind"] in ("faulty", "revoked", "late"):
                breach("%s_accepted" % job["kind"], c)
        # The request's one state.
        if consuming:
            first = consuming[0]
            if first["status"] == 200:
                state = "verified"
            elif first["status"] == 410:
                state = "expired"
            else:
                code = (first.get("codes") or [None])[0]
                state = "rejected"
                codes_422.setdefault(job["kind"], {}).setdefault(code, 0)
                codes_422[job["kind"]][code] += 1
                if code in untrusted_codes and inside(trust_windows, first["t0"], first["t1"]):
                    pass
                elif job["kind"] in ("normal", "replay", "race", "inflight") and code != "revocation.unknown":
                    breach("good_document_rejected", {"rid": rid, "code": code})
                elif job["kind"] == "faulty" and code != job.get("expected_code") and code != "revocation.unknown":
                    breach("faulty_wrong_code", {"rid": rid, "fault": job.get("fault"), "code": code,
                                                 "expected": job.get("expected_code")})
                elif job["kind"] == "revoked" and code not in ("status.revoked", "revocation.unknown"):
                    breach("revoked_wrong_code", {"rid": rid, "code": code})
            if job["kind"] == "late" and first["status"] != 410:
                breach("late_not_expired", first)
        elif answered and consumes.get(rid, 0) >= 1 and lost:
            state = "consumed_answer_lost"   # the call that consumed it lost its connection (instance killed)
        elif answered and answered[-1]["status"] == 429 and consumes.get(rid, 0) == 0:
            state = "rate_limited_not_retried"  # 429 consumed nothing; a driver before the retry on 429 stopped there
        elif consumes.get(rid, 0) == 0 and job.get("outcome") in ("verify_gave_up",):
            state = "unconsumed_gave_up"
            breach("no_final_state", rid)
        elif not rcalls:
            state = "never_verified"
            breach("no_final_state", rid)
        else:
            state = "other"
            breach("no_final_state", {"rid": rid, "calls": [(c["status"], c.get("err")) for c in rcalls]})
        states[state] = states.get(state, 0) + 1
        if job["kind"] in ("replay", "race"):
            replays = [c for c in answered if c["status"] == 409]
            if not replays and state != "consumed_answer_lost":
                breach("replay_not_409", rid)

    # ---- rows no 201 returned: a create that got 503 must have stored nothing ----
    created_ids = {c["rid"] for c in calls if c["op"] == "create" and c["status"] == 201}
    creates = [c for c in calls if c["op"] == "create"]
    orphan_states = {}
    for rid, row in inserted.items():
        if rid in created_ids:
            continue
        tag = policy_tag(row["policy"])
        candidates = [c for c in creates if c.get("tag") == tag and c["t0"] - 0.5 <= row["created"] <= c["t1"] + 0.5
                      and c["status"] != 201]
        if any(c["status"] is None for c in candidates):
            kind = "answer_lost"
        elif any(c["status"] == 503 for c in candidates):
            kind = "after_503"
            breach("503_create_stored", {"row": rid, "calls": candidates})
        else:
            kind = "unexplained"
            breach("unexplained_row", {"row": rid, "tag": tag})
        orphan_states[kind] = orphan_states.get(kind, 0) + 1

    # ---- trust: nothing accepted under a removed anchor ----
    removed_windows = []
    for f in faults:
        if f["cls"] == "trust_reload":
            for inst, seen in f.get("removed_seen", {}).items():
                removed_windows.append((inst, seen, f["readded"]))
    under_removed = 0
    unread_reports = sum(1 for c in calls if c["status"] in (200, 422) and c["op"] != "create" and c.get("verified") is None)
    for c in calls:
        if c["op"] in VERIFY_OPS + ("inspect",) and c["status"] is not None:
            for inst, start, end in removed_windows:
                if c["inst"] == inst and c["t0"] >= start and c["t1"] <= end:
                    under_removed += 1
                    if c["status"] == 200 and c.get("verified") is True:
                        breach("accepted_under_removed_anchor", c)

    # ---- process exits nobody asked for; driver problems ----
    for e in events:
        if e["kind"] in ("unexpected_exit", "not_ready"):
            breach(e["kind"], e)
        if e["kind"] == "fault_error":
            breach("fault_errors", e)
        if e["kind"] == "load_shed":
            breach("load_shed")
    for name, counts in chaos.log_findings.items():
        if counts.get("Fatal error"):
            breach("fatal_error_in_log", name)
        if counts.get("Generic description"):
            breach("generic_description_in_log", name)

    # ---- calls in flight at the kills: a graceful stop answers every one ----
    by_call = {c["call"]: c for c in calls}
    inflight = {}
    for f in faults:
        if f["cls"] in ("kill9", "sigterm"):
            d = inflight.setdefault(f["cls"], {"faults": 0, "calls": 0, "lost": 0, "answered": 0})
            d["faults"] += 1
            for cid in f.get("inflight", []):
                c = by_call.get(cid)
                if c is None:
                    continue
                d["calls"] += 1
                d["lost" if c["status"] is None else "answered"] += 1
                if f["cls"] == "sigterm" and c["status"] is None:
                    # Reset before the server read it (the retry then verifies): counted. Consumed and lost: broken.
                    d["reset_unread"] = d.get("reset_unread", 0) + 1
                    later = [x for x in by_rid.get(c["rid"], []) if x["t0"] > c["t0"] and x["status"] is not None]
                    if consumes.get(c["rid"], 0) > sum(1 for x in by_rid.get(c["rid"], []) if x["status"] in STORE_REACHED) \
                            or (later and later[0]["status"] == 409):
                        breach("lost_at_graceful_stop", c)

    # ---- latency outside fault windows ----
    latency = {}
    for op in ("create", "verify", "inspect"):
        quiet = [c["t1"] - c["t0"] for c in calls if c["op"] == op and c["status"] is not None and c["status"] < 500
                 and not inside(all_windows, c["t0"], c["t1"])]
        every = [c["t1"] - c["t0"] for c in calls if c["op"] == op and c["status"] is not None]
        latency[op] = {"quiet_calls": len(quiet), "p50_ms": ms(percentile(quiet, 0.5)),
                       "p99_ms": ms(percentile(quiet, 0.99)), "all_p99_ms": ms(percentile(every, 0.99))}

    # ---- recovery after each fault ----
    answered_ok = sorted((c for c in calls if c["op"] in ("create",) + VERIFY_OPS
                          and c["status"] is not None and c["status"] < 500 and c["status"] != 429),
                         key=lambda c: c["t1"])
    load_stop = next((e["t"] for e in events if e["kind"] == "load_stop"), float("inf"))
    recovery = {}
    for f in faults:
        targets = [f["target"]] if f["cls"] in ("kill9", "sigterm") else (["a", "b"] if f["cls"].startswith("pg_") else
                                                                          ["a"] if f["cls"] == "disk_full" else [])
        entry = recovery.setdefault(f["cls"], {"count": 0, "seconds": [], "fault_seconds": []})
        entry["count"] += 1
        entry["fault_seconds"].append(round(f["end"] - f["start"], 2))
        if not targets:
            continue
        worst = 0.0
        for inst in targets:
            first = next((c for c in answered_ok if c["inst"] == inst and c["t0"] >= f["release"]), None)
            if first is None:
                worst = None
                break
            worst = max(worst, first["t1"] - f["release"])
        if worst is None:
            if f["release"] < load_stop - 10:  # else the load ended before it could show
                breach("not_recovered", f["cls"])
            continue
        # A fault on the same target that began before the recovery (e.g. queued behind this one) takes it over.
        later = [g for g in faults if g is not f and f["release"] <= g["start"] <= f["release"] + worst
                 and (g["target"] == f["target"] or "pg" in (g["target"], f["target"]) and g["cls"][:3] in ("pg_", "kil", "sig"))]
        if later:
            entry["superseded"] = entry.get("superseded", 0) + 1
        else:
            entry["seconds"].append(round(worst, 2))
    for entry in recovery.values():
        s = entry.pop("seconds")
        entry["recovery_max_s"] = max(s) if s else None
        entry["recovery_p50_s"] = round(statistics.median(s), 2) if s else None
        fs = entry.pop("fault_seconds")
        entry["fault_max_s"] = max(fs)
    for f in faults:
        if f["cls"] == "trust_reload":
            seen = list(f.get("removed_seen", {}).values()) + list(f.get("readded_seen", {}).values())
            if len(seen) < 4:
                breach("trust_reload_not_seen", f)
                continue
            # How long the reload took to show on /readyz, on the slower instance.
            entry = recovery["trust_reload"]
            lag = max(max(f["removed_seen"].values()) - f["removed"], max(f["readded_seen"].values()) - f["readded"])
            entry["recovery_max_s"] = round(max(entry["recovery_max_s"] or 0, lag), 2)

    # ---- memory and descriptors per process life ----
    lives = {}
    for s in chaos.rec.samples:
        lives.setdefault((s["inst"], s["gen"]), []).append(s)
    memory = []
    for (inst, gen), samples in sorted(lives.items()):
        first, last = samples[0]["t"], samples[-1]["t"]
        life = last - first
        series = {}
        for x in samples:  # RSS and descriptors at each minute of the life (the first sample of that minute)
            series.setdefault(int((x["t"] - first) // 60), (round(x["rss_kb"] / 1024, 1), x["fds"]))
        entry = {"inst": inst, "gen": gen, "minutes": round(life / 60, 1), "per_minute_rss_mib_fds": sorted(series.items()),
                 "rss_mib_max": round(max(s["rss_kb"] for s in samples) / 1024, 1),
                 "fds_min": min(s["fds"] for s in samples), "fds_max": max(s["fds"] for s in samples)}
        # Judged over lives of 20 minutes or more: the debug build's RSS climbs for ~8 minutes (caches filling),
        # then stays within a band that malloc_trim moves by a few MiB; so a fixed 10-minute warm-up, and medians
        # over 5 minutes after it and at the end.
        if life >= 1200:
            warm = first + 600
            after = [s for s in samples if warm <= s["t"] <= warm + 300]
            end = [s for s in samples if s["t"] >= last - 300]
            rss_after = statistics.median(s["rss_kb"] for s in after)
            rss_end = statistics.median(s["rss_kb"] for s in end)
            entry.update({"rss_mib_after_warmup": round(rss_after / 1024, 1), "rss_mib_end": round(rss_end / 1024, 1),
                          "rss_growth_pct": round((rss_end / rss_after - 1) * 100, 2),
                          "fds_after_warmup": int(statistics.median(s["fds"] for s in after)),
                          "fds_end": int(statistics.median(s["fds"] for s in end))})
            if entry["rss_growth_pct"] > 5.0:
                breach("rss_growth_over_5pct", entry)
        memory.append(entry)

    status_counts = {}
    for c in calls:
        key = "%s %s" % (c["op"], c["status"] if c["status"] is not None else "lost")
        status_counts[key] = status_counts.get(key, 0) + 1
    kinds = {}
    for job in jobs:
        kinds[job["kind"]] = kinds.get(job["kind"], 0) + 1
    invariants = ["verified_twice", "consumed_twice", "503_consumed", "503_create_stored", "unexplained_row",
                  "created_without_row", "answer_without_consumption", "no_final_state", "undocumented_5xx",
                  "503_outside_store_faults", "revoked_accepted", "faulty_accepted", "late_accepted",
                  "accepted_under_removed_anchor", "lost_at_graceful_stop", "unexpected_exit", "rss_growth_over_5pct"]
    return {
        "command": chaos.command, "seed": args.seed, "store": getattr(args, "store", "postgres"), "minutes": args.minutes, "rate": args.rate,
        "request_ttl": args.request_ttl, "store_timeout": args.store_timeout, "binaries": chaos.bin_source,
        "jobs": len(jobs), "jobs_by_kind": kinds, "calls": len(calls), "status_counts": status_counts,
        "request_states": states, "rows_without_201": orphan_states, "rejection_codes_by_kind": codes_422,
        "faults": len(faults), "faults_by_class": {k: v["count"] for k, v in recovery.items()},
        "recovery": recovery, "inflight_at_kill": inflight, "latency": latency, "memory": memory,
        "calls_under_removed_anchor": under_removed, "reports_without_verdict": unread_reports,
        "starts_refused": sum(1 for e in events if e["kind"] == "start_refused"),
        "revocation_unknown_good_documents": sum(codes_422.get(k, {}).get("revocation.unknown", 0)
                                                 for k in ("normal", "replay", "race", "inflight")), "log_lines": chaos.log_findings,
        "kit_simulations": chaos.sim_count, "kit_seconds_per_simulation": round(chaos.sim_seconds / max(1, chaos.sim_count), 3),
        "invariants": {name: broken.get(name, 0) for name in invariants},
        "broken": broken, "examples": notes,
    }


def ms(seconds):
    return None if seconds is None else round(seconds * 1000, 1)


def print_summary(s):
    print("\nchaos soak: %g min, seed %d, %d jobs, %d calls, %d faults" % (s["minutes"], s["seed"], s["jobs"], s["calls"], s["faults"]))
    print("\n%-32s %s" % ("invariant", "violations"))
    for name, count in s["invariants"].items():
        print("%-32s %d%s" % (name, count, "   <-- BROKEN" if count else ""))
    others = {k: v for k, v in s["broken"].items() if k not in s["invariants"]}
    for name, count in others.items():
        print("%-32s %d   <-- BROKEN" % (name, count))
    print("\nrequest states: %s" % json.dumps(s["request_states"], sort_keys=True))
    print("rows without a 201: %s" % json.dumps(s["rows_without_201"], sort_keys=True))
    print("calls: %s" % json.dumps(s["status_counts"], sort_keys=True))
    print("\n%-14s %6s %14s %14s %12s %11s" % ("fault", "count", "recovery p50", "recovery max", "longest", "superseded"))
    for cls, r in sorted(s["recovery"].items()):
        print("%-14s %6d %14s %14s %12s %11d" % (cls, r["count"], fmt(r["recovery_p50_s"], "s"), fmt(r["recovery_max_s"], "s"),
                                                 fmt(r["fault_max_s"], "s"), r.get("superseded", 0)))
    print("(recovery: from the fault's end to the first answered call on the instance it hit, both for PostgreSQL; "
          "trust_reload: until /readyz shows the reload; superseded: another fault began before it)")
    print("\n%-8s %10s %10s %10s" % ("latency", "p50", "p99", "calls"))
    for op, l in s["latency"].items():
        print("%-8s %10s %10s %10d" % (op, fmt(l["p50_ms"], "ms"), fmt(l["p99_ms"], "ms"), l["quiet_calls"]))
    print("(outside fault windows and %g s after each)" % GRACE)
    print("\n%-6s %4s %8s %12s %10s %10s %8s" % ("inst", "gen", "minutes", "RSS after wu", "RSS end", "growth", "fds"))
    for m in s["memory"]:
        print("%-6s %4d %8.1f %12s %10s %10s %8s" % (m["inst"], m["gen"], m["minutes"], fmt(m.get("rss_mib_after_warmup"), "MiB"),
                                                   fmt(m.get("rss_mib_end"), "MiB"), fmt(m.get("rss_growth_pct"), "%"),
                                                   "%d-%d" % (m["fds_min"], m["fds_max"])))
    print("\nin flight at kills: %s" % json.dumps(s["inflight_at_kill"], sort_keys=True))
    if s.get("reports_without_verdict"):
        print("WARNING: %d answers without a readable verdict (not checked against removed anchors)" % s["reports_without_verdict"])
    print("RESULT: %s" % ("BROKEN: " + ", ".join(sorted(s["broken"])) if s["broken"] else "every invariant held"))


def fmt(value, unit):
    return "-" if value is None else "%s %s" % (value, unit)
