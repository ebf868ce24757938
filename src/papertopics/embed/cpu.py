"""What this CPU offers the embedding backends: the one place that asks (and the override).

`embedding.backend: auto` and `embedding.precision: auto` depend on two facts about the machine:
whether bf16 matmuls run natively (avx512_bf16 or AMX; elsewhere bf16 is emulated and slower
than fp32) and whether the CPU is x86-64 (where OpenVINO's CPU path is measured; elsewhere,
Apple Silicon or other ARM, torch is the measured, safe choice). Every caller asks here.

PAPERTOPICS_CPU_BF16=0 or 1 overrides the bf16 detection: CI runs the embedding and pipeline
tests a second time with it set to 0, so the path of CPUs without bf16 (most laptops) is tested
on a machine that has bf16, and a user can compare the two paths on one machine.

ONEDNN_MAX_CPU_ISA caps the instructions of the kernels of oneDNN (torch) and of OpenVINO's CPU
plugin, which is how CI runs the tests as on an older CPU (docs/cpus.md). A cap below
AVX512_CORE_BF16 leaves those kernels no bf16 instructions, so the detection then says no bf16,
as it would on such a CPU.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import pathlib
import platform

from papertopics.errors import ConfigError

BF16_ENV = "PAPERTOPICS_CPU_BF16"
ISA_ENV = "ONEDNN_MAX_CPU_ISA"
# oneDNN's ISA names whose kernels have bf16 dot products (AVX512_CORE_BF16 and above;
# AVX2_VNNI_2 converts bf16 but has no bf16 dot product). Unset, ALL or DEFAULT: no cap.
_BF16_ISAS = {
    "AVX512_CORE_BF16",
    "AVX512_CORE_FP16",
    "AVX10_1_512",
    "AVX512_CORE_AMX",
    "AVX10_1_512_AMX",
    "AVX512_CORE_AMX_FP16",
    "AVX10_1_512_AMX_FP16",
    "AVX10_2_512",
    "AVX10_2_512_AMX_2",
}
_X86 = {"x86_64", "amd64", "x64", "i386", "i686"}


def bf16_override() -> bool | None:
    """True/False when PAPERTOPICS_CPU_BF16 is 1/0, None when unset or empty (detect)."""
    value = os.environ.get(BF16_ENV, "").strip().lower()
    if not value:
        return None
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{BF16_ENV}: expected 0 or 1 (unset: detect from the CPU), got {value!r}")


def cpu_has_bf16() -> bool:
    """True where bf16 matmuls run natively; PAPERTOPICS_CPU_BF16 overrides the detection."""
    forced = bf16_override()
    if forced is None:
        return isa_cap_allows_bf16() and detected_bf16()
    return forced


def bf16_source() -> str:
    """How cpu_has_bf16 knew: for the log line and the notes a user reads."""
    forced = bf16_override()
    if forced is None:
        if not isa_cap_allows_bf16():
            return f"{ISA_ENV}={isa_cap()} caps the kernels below bf16, so bf16 would be emulated"
        return "detected" if detected_bf16() else "this CPU lacks avx512_bf16/AMX, so bf16 would be emulated"
    return f"{BF16_ENV}={int(forced)}"


def isa_cap() -> str | None:
    """ONEDNN_MAX_CPU_ISA as set (upper case), None when unset, empty, ALL or DEFAULT."""
    value = os.environ.get(ISA_ENV, "").strip().upper()
    return None if value in ("", "ALL", "DEFAULT") else value


def isa_cap_allows_bf16() -> bool:
    """False when ONEDNN_MAX_CPU_ISA caps the kernels below AVX512_CORE_BF16."""
    cap = isa_cap()
    return cap is None or cap in _BF16_ISAS


def cpu_is_x86() -> bool:
    return platform.machine().lower() in _X86


@functools.cache
def detected_bf16() -> bool:
    """avx512_bf16 or amx_bf16 in /proc/cpuinfo (Linux); elsewhere OpenVINO's report on x86-64
    (it may list emulated bf16 too, hence second choice); never on ARM (unmeasured)."""
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
    except OSError:
        text = ""
    for line in text.splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            return bool(flags & {"avx512_bf16", "amx_bf16"})
    if not cpu_is_x86():
        return False
    try:
        import openvino as ov

        return "BF16" in ov.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    except Exception:  # no openvino, no bf16 path
        return False


def openvino_installed() -> bool:
    """openvino can be imported (found without importing it: a fully cached run loads no model).
    Whether its CPU plugin accepts this CPU is only known when the encoder is built
    (papertopics.embed.backends.BackendUnavailable; `auto` then falls back to torch)."""
    return importlib.util.find_spec("openvino") is not None
