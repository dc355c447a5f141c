package dev.retrystudio.prove;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Date;
import java.util.Map;

/** The runner's events on stdout, one line each: "PROVE <job> <json>"; anything else on stdout is the framework's log. */
public final class Events {
  private Events() {}

  public static synchronized void emit(String job, String event, Map<String, ?> fields) {
    StringBuilder b = new StringBuilder("{\"event\":").append(json(event));
    for (Map.Entry<String, ?> e : fields.entrySet()) b.append(',').append(json(e.getKey())).append(':').append(json(e.getValue()));
    System.out.println("PROVE " + job + " " + b.append('}'));
    System.out.flush();
  }

  /** AMQP header values as JSON: tables, arrays, long strings, dates, numbers. */
  public static String json(Object v) {
    if (v == null) return "null";
    if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) return v.toString();
    if (v instanceof Number n) return Double.isFinite(n.doubleValue()) ? n.toString() : json(n.toString());
    if (v instanceof Date d) return Long.toString(d.getTime());
    if (v instanceof byte[] bytes) return json(new String(bytes, StandardCharsets.UTF_8));
    if (v instanceof Map<?, ?> m) {
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (b.length() > 1) b.append(',');
        b.append(json(String.valueOf(e.getKey()))).append(':').append(json(e.getValue()));
      }
      return b.append('}').toString();
    }
    if (v instanceof Collection<?> c) {
      StringBuilder b = new StringBuilder("[");
      for (Object x : c) {
        if (b.length() > 1) b.append(',');
        b.append(json(x));
      }
      return b.append(']').toString();
    }
    String s = v.toString();
    StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
          else b.append(ch);
        }
      }
    }
    return b.append('"').toString();
  }
}
