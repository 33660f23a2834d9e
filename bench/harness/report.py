"""Report arithmetic and formatting: ratios, medians, the spread over rounds, CSV fields, the .txt beside the
terminal, and the machine lines every report starts with."""
import math
import os
import platform
import subprocess


def _num(v):
    if v is None or v == "":
        return None
    try:
        return float(v)
    except ValueError:
        return None


def ratio(a, b, digits=3):
    """a / b with the given decimals, blank when either is blank or not above zero."""
    x, y = _num(a), _num(b)
    if x is None or y is None or x <= 0 or y <= 0:
        return ""
    return f"{x / y:.{digits}f}"


def median(values):
    """The median of the numbers given (blank ones skipped), blank when none. An odd count gives the middle value as
    written; an even count the mean of the two middle ones, with two decimals."""
    v = sorted((x for x in values if _num(x) is not None), key=float)
    if not v:
        return ""
    n = len(v)
    if n % 2:
        return v[n // 2]
    return f"{(float(v[n // 2 - 1]) + float(v[n // 2])) / 2:.2f}"


def min_max(values):
    """(smallest, largest) of the numbers given (blank ones skipped), as written; ("", "") when none."""
    v = sorted((x for x in values if _num(x) is not None), key=float)
    return (v[0], v[-1]) if v else ("", "")


def fixed(v, digits):
    """A number with the given decimals; blank for None."""
    return "" if v is None else f"{v:.{digits}f}"


def per(numerator, denominator, scale=1.0, digits=0):
    """numerator x scale / denominator, blank unless both are given and the denominator is above zero."""
    x, y = _num(numerator), _num(denominator)
    if x is None or y is None or y <= 0:
        return ""
    return f"{x * scale / y:.{digits}f}"


def geometric_summary(values, goal):
    """(cells at or above goal, cells, min, geometric mean) of ratios given as text."""
    v = [float(x) for x in values if _num(x) is not None and float(x) > 0]
    if not v:
        return 0, 0, None, None
    return sum(1 for x in v if x >= goal), len(v), min(v), math.exp(sum(math.log(x) for x in v) / len(v))


def shares_text(counts, names):
    """[1200, 1190, 1210] -> "primary 33% replica_0 33% replica_1 34%"; "-" when nothing was counted."""
    total = sum(counts)
    if total == 0:
        return "-"
    return " ".join(f"{n} {int(100 * c / total + 0.5)}%" for n, c in zip(names, counts))


def csv_field(v):
    v = "" if v is None else str(v)
    if "," in v or '"' in v:
        return '"' + v.replace('"', '""') + '"'
    return v


def write_csv(path, header, rows):
    """rows: lists of fields already formatted (csv_field is applied to every field)."""
    with open(path, "w") as f:
        f.write(header + "\n")
        for row in rows:
            f.write(",".join(csv_field(x) for x in row) + "\n")


class Tee:
    """The report: every line printed and kept, then written to the .txt."""

    def __init__(self):
        self.lines = []

    def __call__(self, line=""):
        print(line, flush=True)
        self.lines.append(line)

    def write(self, path):
        with open(path, "w") as f:
            f.write("\n".join(self.lines) + "\n")


def failed_cells(out, cells):
    """cells: (key words, status, note). Lists those not ok under "Failed cells:"."""
    first = True
    for words, status, note in cells:
        if status == "ok":
            continue
        if first:
            out("")
            out("Failed cells:")
            first = False
        out(f"  {' '.join(str(w) for w in words)}: {note}")


def first_line(cmd):
    """The first line a command prints (stdout and stderr), blank when it cannot run."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    text = (r.stdout or "") + (r.stderr or "")
    return text.splitlines()[0] if text.strip() else ""


def output_lines(cmd):
    """Every line a command prints (stdout, then stderr); none when it cannot run."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return ((r.stdout or "") + (r.stderr or "")).splitlines()


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def _mem():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    return f"{int(line.split()[1]) / 1048576:.1f} GiB"
    except OSError:
        pass
    return ""


def _os_name():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def machine_lines(command):
    """The Command, Machine and OS lines of a report."""
    lines = [f"Command:   {command}",
             f"Machine:   {os.cpu_count()} CPUs, {_cpu_model()}, {_mem()}, kernel {platform.release()}"]
    name = _os_name()
    if name:
        lines.append(f"OS:        {name}")
    return lines
