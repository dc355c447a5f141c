package dev.retrystudio.prove;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One job's listener: records every attempt (time, queue, delivery tag, redelivered flag, headers,
 * x-death) and fails it as told: always (failFirst < 0), or the first K attempts of each message
 * (counted by the message's body).
 */
public final class Attempts {
  private final String job;
  private final int failFirst;
  private final Map<String, Integer> seen = new HashMap<>();

  public Attempts(String job, int failFirst) {
    this.job = job;
    this.failFirst = failFirst;
  }

  public void attempt(String queue, String body, Object deliveryTag, Object redelivered, Map<String, ?> headers, Object xDeath) {
    long t = System.currentTimeMillis();
    int n;
    synchronized (seen) {
      n = seen.merge(body, 1, Integer::sum);
    }
    boolean fail = failFirst < 0 || n <= failFirst;
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("t", t);
    f.put("queue", queue);
    f.put("body", body);
    f.put("deliveryTag", deliveryTag);
    f.put("redelivered", redelivered);
    f.put("headers", headers);
    f.put("xDeath", xDeath);
    f.put("failed", fail);
    Events.emit(job, "attempt", f);
    if (fail) throw new ProveFailure("prove-app: the listener fails attempt " + n + " as told");
  }

  /** What the listener throws: a plain runtime exception, as an application's bug would be. */
  public static final class ProveFailure extends RuntimeException {
    public ProveFailure(String m) {
      super(m);
    }
  }
}
