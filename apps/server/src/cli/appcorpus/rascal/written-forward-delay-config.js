const RETRY_DELAY_MS = 2000;
const MAX_FORWARDS = 3;

module.exports = {
  vhosts: {
    notifications: {
      connection: {
        url: process.env.RABBITMQ_URL || 'amqp://localhost/notifications',
      },
      exchanges: ['service', 'delay', 'retry', 'dead_letters'],
      queues: {
        'notifications:email:send': {
          options: {
            arguments: {
              'x-dead-letter-exchange': 'dead_letters',
              'x-dead-letter-routing-key': 'notifications.dead_letter',
            },
          },
        },
        'delay:2s': {
          options: {
            arguments: {
              'x-message-ttl': RETRY_DELAY_MS,
              'x-dead-letter-exchange': 'retry',
            },
          },
        },
        'dead_letters:notifications': {},
      },
      bindings: {
        'service[email.requested] -> notifications:email:send': {},
        'delay[delay.2s] -> delay:2s': {},
        'retry[notifications:email:send.#] -> notifications:email:send': {},
        'dead_letters[notifications.dead_letter] -> dead_letters:notifications': {},
      },
      subscriptions: {
        send_email: {
          queue: 'notifications:email:send',
          prefetch: 10,
        },
      },
      publications: {
        retry_in_2s: {
          exchange: 'delay',
          options: { CC: ['delay.2s'] },
        },
      },
    },
  },
  recovery: {
    send_email: [
      { strategy: 'forward', publication: 'retry_in_2s', attempts: MAX_FORWARDS, xDeathFix: true },
      { strategy: 'nack' },
    ],
  },
};
