# eukhe's IPython driver: the kernel of the ipython tool (agent/shell/kernel*.go).
#
# eukhe starts it as `python -u -c DRIVER` and talks to it in JSON lines over
# the stdin and stdout it was started with; the driver moves that channel to
# descriptors of its own and gives the cells a standard input of /dev/null and
# one pipe for stdout and stderr (so the output of the cell, of its prints and
# of the programs it starts comes in the order it was written).
#
# eukhe -> driver:
#   {"cell": ID, "code": CODE}          run a cell
#   {"reply": N, "ok": B, "text": T, "kind": K, "ending": E, "status": S}
#                                       the answer to kernel call N
#   {"interrupt": true}                 KeyboardInterrupt in the running cell
# driver -> eukhe:
#   {"ready": IPYTHON_VERSION, "python": VERSION}   once IPython is up
#   {"fatal": TEXT, "missing": B}        IPython cannot start; the driver exits
#   {"out": BASE64}                      cell output, in order
#   {"image": N, "mime": M, "data": BASE64}  display data of the cell
#   {"place": N}                         where image N stands in the output
#   {"call": N, "fn": F, "args": {...}}  a kernel function (read, edit, ...)
#   {"done": ID, "value": TEXT|null, "count": C, "error": NAME|null}
import sys

if sys.path and sys.path[0] in ("", "."):
    del sys.path[0]

import base64
import builtins
import itertools
import json
import os
import queue
import re
import signal
import threading

_proto_in = os.dup(0)
_proto_out = os.dup(1)
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
_out_r, _out_w = os.pipe()
os.dup2(_out_w, 1)
os.dup2(_out_w, 2)
os.close(_out_w)
for _f in (sys.stdout, sys.stderr):
    try:
        _f.reconfigure(write_through=True, errors="backslashreplace")
    except Exception:
        pass

_send_lock = threading.Lock()


def _send(obj):
    data = (json.dumps(obj, ensure_ascii=True) + "\n").encode()
    with _send_lock:
        view = memoryview(data)
        while view:
            n = os.write(_proto_out, view)
            view = view[n:]


_TOKEN = os.urandom(8).hex().encode()
_MARK = b"\x00eukhe-" + _TOKEN + b":"
_ended = threading.Semaphore(0)


def _pump():
    buf = b""
    while True:
        try:
            chunk = os.read(_out_r, 65536)
        except InterruptedError:
            continue
        if not chunk:
            break
        buf += chunk
        while True:
            i = buf.find(_MARK)
            if i < 0:
                break
            j = buf.find(b"\x00", i + len(_MARK))
            if j < 0:
                break
            if i:
                _send({"out": base64.b64encode(buf[:i]).decode()})
            tag = buf[i + len(_MARK):j].decode()
            buf = buf[j + 1:]
            if tag == "end":
                _ended.release()
            else:
                _send({"place": int(tag)})
        # a marker not yet whole stays in buf: it starts at the last NUL
        keep = 0
        i = buf.rfind(b"\x00")
        if i >= 0 and (_MARK.startswith(buf[i:]) or buf[i:].startswith(_MARK)):
            keep = len(buf) - i
        if len(buf) > keep:
            _send({"out": base64.b64encode(buf[:len(buf) - keep]).decode()})
            buf = buf[len(buf) - keep:]


def _marker(tag):
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass
    data = _MARK + tag.encode() + b"\x00"
    while data:
        data = data[os.write(1, data):]


_cells = queue.Queue()
_running = threading.Event()
_pending = {}
_pending_lock = threading.Lock()
_calls = itertools.count(1)


def _interrupt_main():
    # to the main thread itself, so a sleep or a blocking read there ends
    # with EINTR (a signal raised in this thread would wait for the main
    # thread's next bytecode); Windows has no pthread_kill
    if hasattr(signal, "pthread_kill"):
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
    else:
        import _thread
        _thread.interrupt_main()


def _reader():
    buf = b""
    while True:
        try:
            chunk = os.read(_proto_in, 65536)
        except InterruptedError:
            continue
        if not chunk:
            os._exit(0)
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            if not line.strip():
                continue
            msg = json.loads(line)
            if "cell" in msg:
                _cells.put(msg)
            elif "reply" in msg:
                with _pending_lock:
                    slot = _pending.get(msg["reply"])
                if slot is not None:
                    slot[1] = msg
                    slot[0].set()
            elif msg.get("interrupt") and _running.is_set():
                _interrupt_main()


class EukheError(Exception):
    """A kernel function that did not do what was asked: .kind says how
    (refused, not_applied, partial, bad_args, failed, timed_out, cancelled),
    .text is the tool's own reply."""

    def __init__(self, kind, text):
        super().__init__(text)
        self.kind = kind
        self.text = text


class Reply(str):
    """A kernel function's reply: the text the tool gives, with .ok True.
    As a cell's value it shows as that text."""

    ok = True

    def _repr_pretty_(self, p, cycle):
        p.text(str(self))


class Doc(Reply):
    """read()'s reply: the text of the read, with .path, .tag (the version
    edit() needs), .lines (the text of the rows shown) and .rows (row
    number to text)."""

    path = None
    tag = None
    lines = ()
    rows = None


class Listing(Reply):
    """glob()'s reply: its text, with .paths (the paths it listed)."""

    paths = ()


class Ran(Reply):
    """bash()'s reply: its text, with .status (the last step's exit status)
    and .ending (finished, exited, refused, timed_out, ...: how the script ended)."""

    status = 0
    ending = ""


_HEADER = re.compile(r"\[(.*)#([0-9a-f]{8})\]$")
_ROW = re.compile(r"(\d+):(.*)$", re.S)


def _call(fn, args):
    n = next(_calls)
    ev = threading.Event()
    slot = [ev, None]
    with _pending_lock:
        _pending[n] = slot
    try:
        _send({"call": n, "fn": fn, "args": args})
        ev.wait()
    finally:
        with _pending_lock:
            _pending.pop(n, None)
    msg = slot[1]
    if not msg.get("ok"):
        raise EukheError(msg.get("kind") or "failed", msg.get("text") or "")
    return msg


def _args(**kw):
    return {k: v for k, v in kw.items() if v is not None}


def read(path, raw=None):
    """Read a file or directory as the read tool does: rows N:text under
    [path#TAG]. The rows it gives count as seen for edit()."""
    msg = _call("read", _args(path=path, raw=raw))
    d = Doc(msg["text"])
    lines = d.split("\n")
    if lines:
        m = _HEADER.match(lines[0])
        if m:
            d.path, d.tag = m.group(1), m.group(2)
            rows = {}
            for ln in lines[1:]:
                r = _ROW.match(ln)
                if r:
                    rows[int(r.group(1))] = r.group(2)
            d.rows = rows
            d.lines = [rows[k] for k in sorted(rows)]
    return d


def edit(patch):
    """Apply one patch as the edit tool does: every file lands or none
    does. Raises EukheError when it did not land whole."""
    return Reply(_call("edit", {"patch": patch})["text"])


def write(path, content):
    """Write a whole file as the write tool does."""
    return Reply(_call("write", {"path": path, "content": content})["text"])


def grep(pattern, path=None, **kw):
    """Search as the grep tool does (its arguments by name: glob,
    ignoreCase, literal, context, skip, noIgnore)."""
    return Reply(_call("grep", _args(pattern=pattern, path=path, **kw))["text"])


def glob(pattern, path=None, **kw):
    """List files as the glob tool does; .paths holds them."""
    lst = Listing(_call("glob", _args(pattern=pattern, path=path, **kw))["text"])
    lst.paths = [ln for ln in lst.split("\n") if ln and not ln.startswith("[")]
    return lst


def bash(script, timeout=None):
    """Run a script as the bash tool does, each step judged and confined.
    A step the cell was not let do is refused: nothing in a cell asks."""
    msg = _call("bash", _args(script=script, timeout=timeout))
    r = Ran(msg["text"])
    r.status = msg.get("status", 0)
    r.ending = msg.get("ending", "")
    return r


def main():
    # IPython's own directory (profile, history) is private to the session:
    # no profile of the user's runs its startup files here, nothing is
    # written to the home, and a sandbox that keeps the home read-only
    # does not stop the kernel
    import tempfile
    os.environ["IPYTHONDIR"] = os.path.join(tempfile.gettempdir(), "eukhe-ipython")
    try:
        import IPython
        from IPython.core.displayhook import DisplayHook
        from IPython.core.displaypub import DisplayPublisher
        from IPython.core.interactiveshell import InteractiveShell
    except Exception as e:  # ImportError, or a broken install
        _send({"fatal": "%s: %s" % (type(e).__name__, e), "missing": isinstance(e, ImportError)})
        os._exit(3)

    current = {}
    images = itertools.count(1)
    max_image = 8 << 20

    def show(data):
        png = data.get("image/png")
        if png is None:
            return False
        if isinstance(png, str):
            raw = base64.b64decode(png)
        else:
            raw = bytes(png)
        n = next(images)
        if len(raw) > max_image:
            print("[image/png of %d bytes not shown: over %d bytes]" % (len(raw), max_image))
            return True
        _send({"image": n, "mime": "image/png", "data": base64.b64encode(raw).decode()})
        _marker(str(n))
        return True

    class Hook(DisplayHook):
        def write_output_prompt(self):
            pass

        def write_format_data(self, format_dict, md_dict=None):
            if not show(format_dict):
                current["value"] = format_dict.get("text/plain")

    class Pub(DisplayPublisher):
        def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
            if not show(data) and "text/plain" in data:
                print(data["text/plain"])

    class Shell(InteractiveShell):
        displayhook_class = Hook
        display_pub_class = Pub

    from traitlets.config import Config
    config = Config()
    config.HistoryManager.enabled = False
    shell = Shell.instance(config=config, colors="NoColor")
    for f in (EukheError, read, edit, write, grep, glob, bash):
        setattr(builtins, f.__name__, f)
    # What runs is the code the question showed: each cell first gets
    # IPython's own input and AST transformers and no event hooks back,
    # whatever an earlier cell installed, and runs through the run_cell
    # this driver found at its start.
    run_cell = Shell.run_cell
    transformers = (list(shell.input_transformers_cleanup), list(shell.input_transformers_post),
                    list(shell.ast_transformers))
    hooks = {name: list(cbs) for name, cbs in shell.events.callbacks.items()}

    def restore():
        shell.input_transformers_cleanup[:] = transformers[0]
        shell.input_transformers_post[:] = transformers[1]
        shell.ast_transformers[:] = transformers[2]
        for name, cbs in hooks.items():
            shell.events.callbacks[name] = list(cbs)
    sys.path.insert(0, "")
    threading.Thread(target=_pump, daemon=True).start()
    _send({"ready": IPython.__version__, "python": sys.version.split()[0]})
    while True:
        try:
            msg = _cells.get()
        except KeyboardInterrupt:
            continue
        current.clear()
        error = None
        _running.set()
        try:
            restore()
            res = run_cell(shell, msg["code"], store_history=True)
            err = res.error_before_exec or res.error_in_exec
            if err is not None:
                error = type(err).__name__
        except BaseException as e:  # KeyboardInterrupt between the driver's own bytecodes
            error = type(e).__name__
            print("%s: %s" % (error, e))
        _running.clear()
        while True:
            try:
                _marker("end")
                _ended.acquire()
                break
            except KeyboardInterrupt:
                pass
        _send({"done": msg["cell"], "value": current.get("value"), "count": shell.execution_count - 1, "error": error})


threading.Thread(target=_reader, daemon=True).start()
try:
    main()
except BaseException:  # the kernel could not come up: say why, then end
    import traceback
    _send({"fatal": traceback.format_exc(limit=8).strip(), "missing": False})
    os._exit(3)
