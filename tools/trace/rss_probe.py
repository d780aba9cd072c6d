"""Independent measure of the real peak: the process's resident-set high-water mark over
one untraced iteration, minus what was resident before it (Linux: /proc/self/status,
reset through /proc/self/clear_refs). Run in its own process with glibc's malloc told to
hand freed blocks back to the OS (see ENVIRONMENT), so resident memory follows live
tensors. Its answer, one JSON object, goes to the file the request names ("answer"), never
to stdout, which belongs to the model's own prints; an error of the model's code is
answered too, naming the model's line.
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


def measure(spec: str, batch: int, input_shape, optimizer_name, device: str, micro_batches: int = 1) -> dict:
    from tools.trace.iteration import run_iteration
    from tools.trace.models import load_workload
    from tools.trace.tracer import choose_optimizer

    workload = load_workload(spec, batch, input_shape, device)
    workload.model.train()
    optimizer, _ = choose_optimizer(workload, optimizer_name, spec)
    for _ in range(2):  # warm-up: optimizer state, oneDNN caches
        run_iteration(workload, optimizer, micro_batches=micro_batches)
    gc.collect()
    before = _status_kib("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    run_iteration(workload, optimizer, micro_batches=micro_batches)
    high = _status_kib("VmHWM")
    return {"rss_before_bytes": before * 1024, "rss_high_water_bytes": high * 1024,
            "rss_iteration_delta_bytes": (high - before) * 1024, "malloc_environment": ENVIRONMENT}


def main(request: dict):
    from tools.trace.models import TraceError, describe_exception, factory_path

    try:
        answer = measure(request["model"], request["batch"], request["input_shape"], request["optimizer"],
                         request["device"], request.get("micro_batches", 1))
    except TraceError as e:
        answer = {"error": str(e)}
    except (Exception, SystemExit) as e:  # the model's code
        answer = {"error": f"{request['model']}: {describe_exception(e, factory_path(request['model']))}"}
    with open(request["answer"], "w") as f:
        json.dump(answer, f)


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
