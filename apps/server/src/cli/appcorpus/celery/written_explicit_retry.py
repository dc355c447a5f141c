from celery import Celery

from billing.gateway import GatewayTimeout, gateway

app = Celery("billing")
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
)


@app.task(bind=True, max_retries=2)
def charge_card(self, payment_id):
    try:
        return gateway.charge(payment_id)
    except GatewayTimeout as exc:
        raise self.retry(exc=exc, countdown=2)
