import logging

import requests
from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    autoretry_for=(requests.RequestException,),
    retry_backoff=True,
    retry_kwargs={"max_retries": 3},
)
def refresh_exchange_rates(self, base_currency):
    logger.info("refreshing rates for %s (attempt %d)", base_currency, self.request.retries + 1)
    response = requests.get(f"https://rates.example.com/latest?base={base_currency}", timeout=10)
    response.raise_for_status()
    return response.json()
