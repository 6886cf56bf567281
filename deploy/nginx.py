"""A throwaway nginx in front of app servers: ``deploy/nginx.conf`` filled in, in a temporary
folder, run in the foreground as a child of this process and stopped by its pid.

``make serve-lecture``, its test and the classroom load bench use it; on real machines the same
configuration is installed by hand (the README says how).
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf"
#: Debian installs nginx in /usr/sbin, which is not on every user's PATH.
PLACES = ("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")
_TEMP_DIRS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


class NginxError(RuntimeError):
    """nginx is missing, its configuration is refused, or it did not start."""


def program() -> str | None:
    found = shutil.which("nginx")
    return found or next((p for p in PLACES if Path(p).exists()), None)


def available() -> bool:
    return program() is not None


def configuration(listen: str, upstreams: Sequence[str], prefix: Path,
                  user: str | None) -> str:
    """``deploy/nginx.conf`` for these app servers (``host:port``), listening on ``listen``."""
    lines = "\n".join(f"        server {address} max_fails=1 fail_timeout=5s;"
                      for address in upstreams)
    return (TEMPLATE.read_text(encoding="utf-8")
            .replace("@@USER@@", f"user {user} {grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name};"
                      if user else "")
            .replace("@@PREFIX@@", str(prefix))
            .replace("@@UPSTREAMS@@", lines)
            .replace("@@LISTEN@@", listen))


@dataclass
class Nginx:
    process: subprocess.Popen[bytes]
    prefix: Path
    port: int
    host: str

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def log(self) -> str:
        try:
            return (self.prefix / "error.log").read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            # SIGQUIT: a graceful stop; nginx's master ends its workers itself.
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        shutil.rmtree(self.prefix, ignore_errors=True)


def start(upstreams: Sequence[str], *, port: int, host: str = "127.0.0.1",
          timeout: float = 20.0) -> Nginx:
    """Start nginx on ``host:port`` in front of ``upstreams`` and wait until it answers."""
    binary = program()
    if binary is None:
        raise NginxError("nginx is not installed (Debian: apt-get install nginx)")
    prefix = Path(tempfile.mkdtemp(prefix="qwk-nginx-"))
    user = None
    if os.geteuid() == 0:  # workers drop root: they need their temporary folders
        user = "nobody"
        entry = pwd.getpwnam(user)
        prefix.chmod(0o755)
        for name in _TEMP_DIRS:
            (prefix / name).mkdir()
            os.chown(prefix / name, entry.pw_uid, entry.pw_gid)
    config = prefix / "nginx.conf"
    config.write_text(configuration(f"{host}:{port}", upstreams, prefix, user), encoding="utf-8")
    checked = subprocess.run([binary, "-t", "-p", str(prefix), "-c", str(config)],
                             capture_output=True, text=True, check=False)
    if checked.returncode != 0:
        shutil.rmtree(prefix, ignore_errors=True)
        raise NginxError(f"nginx refused the configuration:\n{checked.stderr}")
    process = subprocess.Popen([binary, "-p", str(prefix), "-c", str(config), "-g",
                                "daemon off;"], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    proxy = Nginx(process, prefix, port, host)
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            log = proxy.log()
            proxy.stop()
            raise NginxError(f"nginx exited with status {process.returncode}:\n{log}")
        try:
            with urllib.request.urlopen(proxy.url + "/_stcore/health", timeout=2):
                return proxy
        except OSError:
            if time.monotonic() > deadline:
                proxy.stop()
                raise NginxError(f"nginx did not answer within {timeout:g} s") from None
            time.sleep(0.2)


@contextmanager
def running(upstreams: Sequence[str], *, port: int, host: str = "127.0.0.1") -> Iterator[Nginx]:
    proxy = start(upstreams, port=port, host=host)
    try:
        yield proxy
    finally:
        proxy.stop()
