"""Independent measure of the real peak: the process's resident-set high-water mark over
one untraced iteration, minus what was resident before it (Linux: /proc/self/status,
reset through /proc/self/clear_refs). Run in its own process with glibc's malloc told to
hand freed blocks back to the OS (see ENVIRONMENT), so resident memory follows live
tensors; its output is one JSON object on stdout.
"""
import gc
import json
import sys

# Large blocks are mmap()ed and unmapped when freed; the heap top is trimmed at once; one
# arena, so intra-op threads do not keep their own.
ENVIRONMENT = {"MALLOC_MMAP_THRESHOLD_": "65536", "MALLOC_TRIM_THRESHOLD_": "0", "MALLOC_ARENA_MAX": "1"}


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def measure(spec: str, batch: int, input_shape, optimizer_name: str, device: str) -> dict:
    from tools.trace.iteration import make_optimizer, run_iteration
    from tools.trace.models import load_workload

    workload = load_workload(spec, batch, input_shape, device)
    workload.model.train()
    optimizer = make_optimizer(optimizer_name, workload.model)
    run_iteration(workload, optimizer)  # warm-up: optimizer state, oneDNN caches
    run_iteration(workload, optimizer)
    gc.collect()
    before = _status_kib("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    run_iteration(workload, optimizer)
    high = _status_kib("VmHWM")
    return {"rss_before_bytes": before * 1024, "rss_high_water_bytes": high * 1024,
            "rss_iteration_delta_bytes": (high - before) * 1024, "malloc_environment": ENVIRONMENT}


if __name__ == "__main__":
    request = json.loads(sys.argv[1])
    print(json.dumps(measure(request["model"], request["batch"], request["input_shape"], request["optimizer"],
                             request["device"])))
