"""The trainer's forward pass (1024 x 200 x 128 x 128) on fixed 2 torch threads and on ThreadBudget(0), alone
and beside two busy processes, in one run: `python scripts/bench_threads.py`."""
import subprocess
import time

import torch

from stonk_envs.training.threads import ThreadBudget

x, w1, w2 = torch.randn(1024, 200), torch.randn(128, 200), torch.randn(128, 128)


def work():
    return torch.tanh(torch.tanh(x @ w1.T) @ w2.T).sum()


def measure(setting, seconds=6.0):
    budget = ThreadBudget(setting)
    time.sleep(0.5)
    budget.adjust()
    t = time.perf_counter()
    n, last = 0, t
    while time.perf_counter() - t < seconds:
        work()
        n += 1
        if time.perf_counter() - last > 1.0:
            budget.adjust()
            last = time.perf_counter()
    return n / (time.perf_counter() - t), budget.threads


for busy in (0, 2):
    procs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(busy)]
    try:
        for setting in (2, 0):
            rate, threads = measure(setting)
            print(f"beside {busy} busy, torch_threads={setting}: {rate:8.1f} it/s (threads in use {threads})")
    finally:
        for p in procs:
            p.kill()
            p.wait()
