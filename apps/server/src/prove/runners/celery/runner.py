"""prove-app's Celery runner: a Celery app and a worker (solo pool) in this process, on the
throwaway vhost, with one task built from what import-app read (its retry options as the
decorator or base class sets them, task_acks_late, task_reject_on_worker_lost) whose body fails as
told; once the worker consumes, the task is applied once. Events on stdout as
"PROVE <job> <json>"; "stop" on stdin (or its end) stops it."""

import ast
import json
import os
import sys
import threading
import time

import celery
import kombu
from celery import Celery
from celery.signals import worker_ready


OUT = sys.__stdout__


def emit(job, event, **fields):
    """One event line on the real stdout (Celery redirects sys.stdout into its logger)."""
    OUT.write(f"PROVE {job} {json.dumps({'event': event, **fields}, default=str)}\n")
    OUT.flush()


UNREAD = object()


def literal(text):
    """A Python literal as the file wrote it (True, 5, 600.0, None); UNREAD for anything else (a name, a call)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return UNREAD


def retry_kwargs(call_args):
    """The literal keyword arguments of `self.retry(...)` as the file wrote them (exc= is ours)."""
    try:
        call = ast.parse(f"f({call_args})", mode="eval").body
    except SyntaxError:
        return {}
    out = {}
    for kw in call.keywords:
        if kw.arg in ("countdown", "max_retries", "eta"):
            try:
                out[kw.arg] = ast.literal_eval(kw.value)
            except ValueError:
                pass
    return out


class ProveFailure(Exception):
    """What the task raises: a plain exception, as an application's bug would be."""


TASK_OPTIONS = ("max_retries", "retry_backoff", "retry_backoff_max", "retry_jitter", "default_retry_delay")


def main():
    spec = json.load(open(sys.argv[1], encoding="utf-8"))
    job = spec["job"]
    settings = spec["settings"]
    queue = spec["queue"]
    fail_first = spec["failFirst"]
    emit("-", "runner", celeryVersion=celery.__version__, kombuVersion=kombu.__version__)

    app = Celery("prove", broker=spec["brokerUrl"])
    conf = {
        "task_default_queue": queue,
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
        "worker_redirect_stdouts": False,
    }
    for key in ("task_acks_late", "task_reject_on_worker_lost"):
        if key in settings and literal(settings[key]) is not UNREAD:
            conf[key] = literal(settings[key])
    app.conf.update(conf)

    options = {"bind": True, "name": spec["task"], "queue": queue}
    for key in TASK_OPTIONS:
        if key in settings and literal(settings[key]) is not UNREAD:
            options[key] = literal(settings[key])
    if "autoretry_for" in settings:
        options["autoretry_for"] = (ProveFailure,)
    explicit = retry_kwargs(settings["self.retry"]) if "self.retry" in settings else None

    def body(self, payload):
        n = self.request.retries + 1
        fail = fail_first < 0 or n <= fail_first
        info = self.request.delivery_info or {}
        emit(
            job,
            "attempt",
            t=int(time.time() * 1000),
            queue=info.get("routing_key", queue),
            body=payload,
            deliveryTag=info.get("delivery_tag"),
            redelivered=info.get("redelivered"),
            headers={"id": self.request.id, "retries": self.request.retries, "eta": self.request.eta},
            xDeath=None,
            failed=fail,
        )
        if not fail:
            return "ok"
        exc = ProveFailure(f"prove-app: the task fails attempt {n} as told")
        if explicit is not None:
            raise self.retry(exc=exc, **explicit)
        raise exc

    task = app.task(**options)(body)

    @worker_ready.connect
    def apply_once(**_):
        def send():
            emit(job, "published", t=int(time.time() * 1000))
            task.apply_async(args=[spec["body"]], queue=queue)

        threading.Thread(target=send, daemon=True).start()

    def watch_stdin():
        for line in sys.stdin:
            if line.strip().startswith(("stop", "quit")):
                break
        emit(job, "stopped")
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        app.worker_main(
            argv=[
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "-Q",
                queue,
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=WARNING",
                "-n",
                f"prove-{job}@localhost",
            ]
        )
    except Exception as e:  # the framework's own words
        emit(job, "error", message=f"{type(e).__name__}: {e}")
        raise


if __name__ == "__main__":
    main()
