package dev.retrystudio.prove;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One JVM runs many jobs, each a fresh SpringApplication context (several at once, one after
 * another), so a CI run pays for one JVM start per Spring flavour. Commands on stdin, one a line:
 * "start JOB SPEC.properties", "stop JOB", "quit". Events on stdout (Events).
 */
public final class Main {
  private static final Map<String, ConfigurableApplicationContext> RUNNING = new ConcurrentHashMap<>();

  public static void main(String[] argv) throws Exception {
    Events.emit(
        "-",
        "runner",
        Map.of(
            "flavour", System.getProperty("prove.flavour", "?"),
            "bootVersion", versionOf("org.springframework.boot.SpringApplication"),
            "amqpVersion", versionOf("org.springframework.amqp.rabbit.core.RabbitTemplate"),
            "streamVersion", versionOf("org.springframework.cloud.stream.binder.rabbit.RabbitMessageChannelBinder")));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String[] w = line.trim().split(" ", 3);
      if (w[0].equals("quit")) break;
      if (w[0].equals("start") && w.length == 3) new Thread(() -> start(w[1], w[2]), "job-" + w[1]).start();
      else if (w[0].equals("stop") && w.length >= 2) new Thread(() -> stop(w[1]), "stop-" + w[1]).start();
    }
    for (String job : RUNNING.keySet()) stop(job);
    System.exit(0);
  }

  /** the version in a class's jar manifest; "none" when the class is not on this flavour's classpath */
  private static String versionOf(String className) {
    try {
      Class<?> c = Class.forName(className);
      String v = c.getPackage().getImplementationVersion();
      if (v != null) return v;
      // no version in the manifest: the jar's name says it (spring-rabbit-3.2.8.jar)
      String jar = String.valueOf(c.getProtectionDomain().getCodeSource().getLocation());
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("-(\\d+\\.\\d+[^/]*?)\\.jar$").matcher(jar);
      return m.find() ? m.group(1) : "unknown";
    } catch (ClassNotFoundException e) {
      return "none";
    }
  }

  static void start(String job, String specPath) {
    try {
      Properties spec = new Properties();
      try (FileReader r = new FileReader(specPath, StandardCharsets.UTF_8)) {
        spec.load(r);
      }
      List<String> args = new ArrayList<>();
      for (int i = 0; spec.containsKey("arg." + i); i++) args.add(spec.getProperty("arg." + i));
      Attempts attempts = new Attempts(job, Integer.parseInt(spec.getProperty("failFirst", "-1")));
      ConfigurableApplicationContext ctx =
          new SpringApplicationBuilder(ProveApplication.class)
              .properties("spring.main.banner-mode=off", "spring.main.web-application-type=none", "spring.jmx.enabled=false")
              .registerShutdownHook(false)
              .initializers(c -> c.getBeanFactory().registerSingleton("proveAttempts", attempts))
              .run(args.toArray(String[]::new));
      RUNNING.put(job, ctx);
      Events.emit(job, "started", Map.of());
    } catch (Throwable e) {
      Events.emit(job, "error", Map.of("message", causes(e)));
    }
  }

  static void stop(String job) {
    ConfigurableApplicationContext ctx = RUNNING.remove(job);
    try {
      if (ctx != null) ctx.close();
    } catch (Throwable e) {
      Events.emit(job, "error", Map.of("message", causes(e)));
    }
    Events.emit(job, "stopped", Map.of());
  }

  /**
   * The framework's own words: each cause's message, outermost first, and where the innermost was thrown
   * (a bare "NoSuchElementException: null" says nothing of whose it was).
   */
  static String causes(Throwable e) {
    StringBuilder b = new StringBuilder();
    Throwable root = e;
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (b.length() > 0) b.append("\n  caused by: ");
      b.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
      root = c;
    }
    StackTraceElement[] at = root.getStackTrace();
    for (int i = 0; i < Math.min(3, at.length); i++) b.append("\n    at ").append(at[i]);
    return b.toString();
  }
}
