package dev.retrystudio.prove;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application each job starts: the listener, the Java-configured container factory or the stream functions, by prove.mode. */
@SpringBootApplication
public class ProveApplication {}
