"""Symbolic equivalence of two expressions, bounded in size, time and memory.

A symbolic answer (``2Φ + 14Φ/N``) is first checked numerically at a few
random points (:mod:`engine.grading`); only an answer that passes those checks
reaches sympy for proof.  Two guards keep that step from hanging a program:

* **A bound on the whole expression** (:func:`complexity`), checked before
  sympy is ever called.  Per-operator caps are not enough: nested powers
  multiply the degree (``((Φ+N)^16+1)^4`` is of degree 64), and a sum of
  fractions multiplies the number of terms once put over one denominator.  The
  estimate follows the expression as a rational function - numerator and
  denominator, each with a degree and a number of terms after expansion - and
  an answer beyond :data:`MAX_DEGREE` or :data:`MAX_TERMS` is refused with its
  figures before any algebra starts.  Every formula the bank asks for is of
  degree 2 or 3 with a handful of terms.
* **A worker process** (:class:`Checker`) that runs sympy under a time limit
  and, where the platform has one, a memory limit (``RLIMIT_AS``).  When a limit
  is reached the worker is killed - a thread cannot be stopped, a process can -
  and the caller gets :class:`Undecided`, so the answer is *not graded*.  The
  process is started on first use and reused (it keeps sympy imported, which
  costs ~0.7 s once); the calling program never imports sympy itself.

The worker is started as ``python -m engine.symbolic`` rather than through
:mod:`multiprocessing`, whose "spawn" start would re-run the caller's
``__main__`` (the app) in the child and whose "fork" start is unsafe in a
threaded program such as a Textual app.  Requests and answers are pickled
frames over the worker's stdin/stdout (both ends are this module).
"""

from __future__ import annotations

import math
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from pathlib import Path

from engine.records import NamedTuple

from . import expr as ex
from .messages import Msg, say

MAX_DEGREE = 32  # total degree of numerator or denominator, after putting the answer over one denominator
MAX_TERMS = 2000  # terms of numerator or denominator after expansion
TIME_LIMIT = 5.0  # seconds one proof may take in the worker
START_LIMIT = 60.0  # seconds the worker may take to start (it imports sympy)
MEMORY_LIMIT = 2 * 1024 ** 3  # bytes of address space the worker may use (POSIX)

_BIG = 10 ** 9  # term counts are capped here: the figure only has to exceed MAX_TERMS


class Undecided(Exception):
    """The proof could not be finished: too complex, out of time or memory.  ``said`` is why (en/zh)."""

    def __init__(self, said: Msg) -> None:
        self.said = said
        super().__init__(said.text())


class Size(NamedTuple):
    """A rational function's size: degree and terms of its numerator and denominator."""

    num_deg: float
    num_terms: int
    den_deg: float
    den_terms: int

    @property
    def degree(self) -> float:
        return max(self.num_deg, self.den_deg)

    @property
    def terms(self) -> int:
        return max(self.num_terms, self.den_terms)


def _power_terms(terms: int, n: int) -> int:
    """Terms of (t terms)^n after expansion, at most: the number of monomials of degree n in t symbols."""
    if n <= 1 or terms <= 1:
        return terms
    return min(_BIG, math.comb(min(terms, _BIG) + n - 1, n))


def _size(node: ex.Node) -> Size:
    if isinstance(node, ex.Num):
        return Size(0, 1, 0, 1)
    if isinstance(node, ex.Var):
        return Size(1, 1, 0, 1)
    if isinstance(node, ex.Neg):
        return _size(node.operand)
    if isinstance(node, ex.Bin):
        a = _size(node.left)
        if node.op == "^":
            r = node.right
            if not (isinstance(r, ex.Num) and float(r.value).is_integer()):
                if not ex.names_in(node.left):  # a number to a number: a constant
                    return Size(0, 1, 0, 1)
                return Size(math.inf, _BIG, math.inf, _BIG)  # not a polynomial power: beyond any bound
            n = int(abs(r.value))
            if n == 0:
                return Size(0, 1, 0, 1)
            num = (a.num_deg * n, _power_terms(a.num_terms, n))
            den = (a.den_deg * n, _power_terms(a.den_terms, n))
            return Size(*num, *den) if r.value > 0 else Size(*den, *num)
        b = _size(node.right)
        if node.op == "*":
            return Size(a.num_deg + b.num_deg, min(_BIG, a.num_terms * b.num_terms),
                        a.den_deg + b.den_deg, min(_BIG, a.den_terms * b.den_terms))
        if node.op == "/":
            return Size(a.num_deg + b.den_deg, min(_BIG, a.num_terms * b.den_terms),
                        a.den_deg + b.num_deg, min(_BIG, a.den_terms * b.num_terms))
        # + and -: a/b + c/d = (ad + cb) / bd
        return Size(max(a.num_deg + b.den_deg, b.num_deg + a.den_deg),
                    min(_BIG, a.num_terms * b.den_terms + b.num_terms * a.den_terms),
                    a.den_deg + b.den_deg, min(_BIG, a.den_terms * b.den_terms))
    # anything else (a function call) is not a polynomial expression
    return Size(math.inf, _BIG, math.inf, _BIG)


def complexity(node: ex.Node) -> Size:
    """The size of ``node`` as one fraction of expanded polynomials (an upper estimate)."""
    return _size(node)


def too_complex(*nodes: ex.Node) -> Msg | None:
    """Why these expressions are beyond what is proved symbolically, or None."""
    for node in nodes:
        s = complexity(node)
        if not math.isinf(s.degree):  # like terms collect: no more than the monomials of that degree
            monomials = math.comb(int(s.degree) + len(ex.names_in(node)), len(ex.names_in(node)))
            s = s._replace(num_terms=min(s.num_terms, monomials), den_terms=min(s.den_terms, monomials))
        if s.degree > MAX_DEGREE:
            shown = "∞" if math.isinf(s.degree) else str(int(s.degree))
            return say("symbolic.degree", degree=shown, most=MAX_DEGREE)
        if s.terms > MAX_TERMS:
            shown = f"> {_BIG:,}" if s.terms >= _BIG else f"{s.terms:,}"
            return say("symbolic.terms", terms=shown, most=MAX_TERMS)
    return None


# --------------------------------------------------------------------------- #
# The worker process


def _write(stream, obj) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def _read(stream):
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError
    (n,) = struct.unpack(">I", head)
    data = stream.read(n)
    if len(data) < n:
        raise EOFError
    return pickle.loads(data)


def prove(a: ex.Node, b: ex.Node) -> bool | None:
    """True / False when sympy decides ``a == b``; None when it cannot.  Runs in the worker (imports sympy)."""
    import sympy

    diff = ex.to_sympy(a) - ex.to_sympy(b)
    if sympy.cancel(diff) == 0:
        return True
    return sympy.simplify(diff).is_zero


def _serve() -> None:  # pragma: no cover - runs in the worker process (tested through Checker)
    """The worker's loop: read (a, b) pairs, answer ("ok", verdict) or ("error", kind)."""
    src, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but frames on the pipe
    limit = int(os.environ.get("DRILL_SYMBOLIC_MEMORY", MEMORY_LIMIT))
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # no such limit here (Windows): the time limit still holds
        pass
    import sympy  # noqa: F401  (imported once, before saying ready)

    _write(out, ("ready", None))
    while True:
        try:
            a, b = _read(src)
        except EOFError:
            return
        try:
            _write(out, ("ok", prove(a, b)))
        except MemoryError:
            _write(out, ("error", "memory"))
            return
        except RecursionError:
            _write(out, ("error", "failed"))
        except Exception:  # noqa: BLE001 - any sympy failure leaves the answer undecided
            _write(out, ("error", "failed"))


class Checker:
    """A reusable sympy worker process with a time limit per proof.

    Thread-safe: one proof at a time.  :meth:`close` kills the worker at once
    (a proof waiting on it returns :class:`Undecided`), so a program can always
    quit while a check runs.
    """

    def __init__(self, time_limit: float = TIME_LIMIT, start_limit: float = START_LIMIT) -> None:
        self.time_limit = time_limit
        self.start_limit = start_limit
        self._proc: subprocess.Popen | None = None
        self._answers: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._closed = False

    # -------------------------------------------------------------- process
    def _start(self) -> subprocess.Popen:
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        proc = subprocess.Popen([sys.executable, "-m", "engine.symbolic"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=root)
        answers: queue.Queue = queue.Queue()

        def pump() -> None:  # reads the worker's answers; ends when the worker does
            try:
                while True:
                    answers.put(_read(proc.stdout))
            except (EOFError, OSError, ValueError, pickle.UnpicklingError):
                answers.put(("gone", None))

        threading.Thread(target=pump, name="symbolic-reader", daemon=True).start()
        self._proc, self._answers = proc, answers
        kind, _ = self._wait(self.start_limit)
        if kind != "ready":
            self._kill()
            raise Undecided(say("symbolic.failed"))
        return proc

    def _wait(self, limit: float):
        try:
            return self._answers.get(timeout=limit)
        except queue.Empty:
            return ("timeout", None)

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:  # pragma: no cover - the kernel had it by then
                pass
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                try:
                    if stream is not None:  # (never: _start opens both as pipes)
                        stream.close()
                except OSError:
                    pass

    # -------------------------------------------------------------- public
    def equal(self, a: ex.Node, b: ex.Node) -> bool | None:
        """sympy's verdict on ``a == b`` (None: it could not decide); :class:`Undecided` past a limit."""
        with self._lock:
            if self._closed:
                raise Undecided(say("symbolic.stopped"))
            proc = self._proc
            if proc is None or proc.poll() is not None:
                proc = self._start()
            try:
                _write(proc.stdin, (a, b))
            except (OSError, ValueError):
                self._kill()
                raise Undecided(say("symbolic.failed")) from None
            kind, value = self._wait(self.time_limit)
            if kind == "ok":
                return value
            self._kill()
            if kind == "timeout":
                raise Undecided(say("symbolic.timeout", seconds=f"{self.time_limit:g}"))
            if kind == "error" and value == "memory":
                raise Undecided(say("symbolic.memory", most=f"{MEMORY_LIMIT // 1024 ** 3} GiB"))
            if self._closed:
                raise Undecided(say("symbolic.stopped"))
            raise Undecided(say("symbolic.failed"))

    def close(self) -> None:
        """Kill the worker now; later proofs are refused (a new Checker starts afresh)."""
        self._closed = True
        self._kill()


_checker: Checker | None = None
_checker_lock = threading.Lock()


def checker() -> Checker:
    """The shared worker of this process (started on first proof)."""
    global _checker
    with _checker_lock:
        if _checker is None or _checker._closed:
            _checker = Checker()
            import atexit

            atexit.register(_checker.close)
        return _checker


def shutdown() -> None:
    """Stop the shared worker (a proof in progress ends as :class:`Undecided` at once)."""
    with _checker_lock:
        c = _checker
    if c is not None:
        c.close()


if __name__ == "__main__":  # pragma: no cover - the worker process
    _serve()
