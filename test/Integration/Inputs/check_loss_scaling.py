"""Checks the output of loss-scaling-mlp.mlir against independent references.

The scaler schedule is checked against torch.amp.GradScaler's update rule
written out here (plus the pass's min/max clamp); the losses and gradients
against a numpy float32 run of the same MLP and SGD steps. Prints one verdict
line per property; FileCheck matches them.
"""
import math
import re
import sys

import numpy as np

# The options on the RUN line and the driver's initial state.
INIT_SCALE, GROWTH, BACKOFF, INTERVAL = 256.0, 2.0, 0.5, 3
MIN_SCALE, MAX_SCALE = 64.0, 1024.0
LR = np.float32(0.125)
TINY_LOSS_WEIGHT = np.float32(2.0**-20)
# Stated bounds (f16 forward/backward against f32): relative loss deviation
# over 10 steps, and elementwise relative gradient error under loss scaling.
LOSS_REL_BOUND = 1e-3
GRAD_REL_BOUND = 5e-3

B, IN, HID = 16, 4, 8
X = np.array([[((i * 5 + j * 3) % 7 - 3) / 4 for j in range(IN)]
              for i in range(B)], np.float32)
Y = np.array([[((i * 3) % 5 - 2) / 2] for i in range(B)], np.float32)
W1 = np.array([[((i * 7 + j * 3) % 11 - 5) / 8 for j in range(HID)]
               for i in range(IN)], np.float32)
W2 = np.array([[((j * 5) % 9 - 4) / 8] for j in range(HID)], np.float32)


def reference_step(w1, w2, lw=np.float32(1.0)):
    """Loss and gradients of the driver's MLP, all in float32."""
    h = X @ w1
    a = np.maximum(h, np.float32(0))
    r = a @ w2 - Y
    loss = lw * np.float32(np.sum(r * r)) / np.float32(B)
    dout = lw * np.float32(2.0 / B) * r
    g2 = a.T @ dout
    dh = np.where(h > 0, dout @ w2.T, np.float32(0))
    g1 = X.T @ dh
    return np.float32(loss), g1.astype(np.float32), g2.astype(np.float32)


def grad_scaler_update(scale, count, finite):
    """torch.amp.GradScaler's update, then the clamp; also the unclamped."""
    if not finite:
        scale, count = scale * BACKOFF, 0
    else:
        count += 1
        if count == INTERVAL:
            if math.isfinite(scale * GROWTH):
                scale *= GROWTH
            count = 0
    return min(max(scale, MIN_SCALE), MAX_SCALE), count, scale


def sections(text):
    parts = re.split(r"^section (\w+)$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def records(body):
    """`key value` lines grouped into one dict per `step`."""
    recs = []
    for line in body.splitlines():
        fields = line.split()
        if len(fields) != 2:
            continue
        key, value = fields
        if key == "step":
            recs.append({})
        recs[-1][key] = float(value)
    return recs


def verdict(name, ok, detail):
    print(f"{name}: {'PASS' if ok else 'FAIL'} ({detail})")


def main():
    out = sections(open(sys.argv[1]).read())

    # --- schedule: (a) skip, (b) growth, (c) clamps --------------------------
    sched = records(out["schedule"])
    state_ok, rule_ok = True, True
    skip_ok, skipped, grow_events, grow_ok = True, 0, 0, True
    max_events, max_ok, min_events, min_ok = 0, True, 0, True
    scale, count = INIT_SCALE, 0
    for rec in sched:
        state_ok &= rec["scale_in"] == scale and rec["count_in"] == count
        injected = rec["injected"] == 1
        scale, count, unclamped = grad_scaler_update(
            rec["scale_in"], int(rec["count_in"]), finite=not injected)
        rule_ok &= rec["scale_out"] == scale and rec["count_out"] == count
        if injected:
            skipped += 1
            skip_ok &= (rec["unchanged"] == 1 and rec["count_out"] == 0 and
                        math.isfinite(rec["loss"]) and
                        rec["scale_out"] == max(rec["scale_in"] * BACKOFF,
                                                MIN_SCALE))
        else:
            skip_ok &= rec["unchanged"] == 0
        if not injected and unclamped == rec["scale_in"] * GROWTH:
            grow_events += 1
            grow_ok &= rec["scale_out"] == min(unclamped, MAX_SCALE)
        if unclamped > MAX_SCALE:
            max_events += 1
            max_ok &= rec["scale_out"] == MAX_SCALE
        if unclamped < MIN_SCALE:
            min_events += 1
            min_ok &= rec["scale_out"] == MIN_SCALE
    scales = " -> ".join(f"{r['scale_out']:g}" for r in sched)
    verdict("scaler-state", state_ok and rule_ok and len(sched) == 15,
            f"{len(sched)} steps, scale {scales}")
    verdict("skip-on-overflow", skip_ok and skipped == 5 and rule_ok,
            f"{skipped} overflowing steps skipped with bit-identical "
            f"parameters, finite loss, scale halved, counter reset")
    verdict("growth-after-interval",
            grow_ok and grow_events >= 2 and rule_ok,
            f"{grow_events} growths after {INTERVAL} finite steps")
    verdict("clamp-max", max_ok and max_events >= 1,
            f"{max_events} growths clamped to {MAX_SCALE:g}")
    verdict("clamp-min", min_ok and min_events >= 1,
            f"{min_events} backoffs clamped to {MIN_SCALE:g}")

    # --- track: (d) losses against an f32 run ---------------------------------
    track = records(out["track"])
    w1, w2 = W1.copy(), W2.copy()
    worst, scale_ok = 0.0, True
    for k, rec in enumerate(track):
        loss, g1, g2 = reference_step(w1, w2)
        worst = max(worst, abs(rec["loss"] - loss) / abs(loss))
        w1, w2 = w1 - LR * g1, w2 - LR * g2
        expected = min(INIT_SCALE * GROWTH**((k + 1) // INTERVAL), MAX_SCALE)
        scale_ok &= rec["scale_out"] == expected
    verdict("loss-tracks-f32",
            len(track) == 10 and worst <= LOSS_REL_BOUND and scale_ok,
            f"max relative loss deviation {worst:.2e} <= {LOSS_REL_BOUND:g} "
            f"over {len(track)} steps")

    # --- underflow: (e) zero gradient entries ---------------------------------
    under = out["underflow"]
    zeros = dict(re.findall(r"^(zeros_\w+) (\d+)$", under, flags=re.M))
    grads = []
    for part in re.split(r"^grad_w\d_scaled$", under, flags=re.M)[1:]:
        data = part.split("data =", 1)[1]
        grads.append(np.array(
            [float(v) for v in re.findall(r"-?\d[\d.e+-]*", data)], np.float32))
    _, g1, g2 = reference_step(W1, W2, TINY_LOSS_WEIGHT)
    ref = np.concatenate([g1.ravel(), g2.ravel()])
    got = np.concatenate(grads)
    ref_zeros = int(np.sum(ref == 0))
    unscaled, scaled = int(zeros["zeros_unscaled"]), int(zeros["zeros_scaled"])
    nonzero = ref != 0
    rel = np.max(np.abs(got[nonzero] - ref[nonzero]) / np.abs(ref[nonzero]))
    print(f"underflow-zeros: without scaling {unscaled} of {ref.size}, "
          f"with scaling {scaled} of {ref.size}, "
          f"f32 reference {ref_zeros} of {ref.size}")
    verdict("underflow-fixed",
            got.size == ref.size and unscaled > ref_zeros and
            scaled == ref_zeros and rel <= GRAD_REL_BOUND,
            f"scaled gradients within {rel:.2e} <= {GRAD_REL_BOUND:g} "
            f"relative of f32")


if __name__ == "__main__":
    main()
