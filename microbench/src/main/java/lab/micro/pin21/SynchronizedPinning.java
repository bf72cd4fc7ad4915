package lab.micro.pin21;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jdk.jfr.consumer.RecordingStream;

/**
 * Blocks virtual threads inside {@code synchronized} and counts JFR {@code jdk.VirtualThreadPinned} events. Java
 * 21 bytecode, so {@code ./lab micro pinning --java-home <jdk21>} runs it where monitors still pin (JDK 24
 * removed that). Prints one line: {@code pinned=<events> threads=<n> jdk=<version>}.
 */
public final class SynchronizedPinning {

	private SynchronizedPinning() {
	}

	public static void main(String[] args) throws Exception {
		int threads = (args.length > 0) ? Integer.parseInt(args[0]) : 4;
		AtomicInteger pinned = new AtomicInteger();
		try (RecordingStream events = new RecordingStream()) {
			events.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO);
			events.onEvent("jdk.VirtualThreadPinned", event -> pinned.incrementAndGet());
			events.startAsync();
			Thread[] started = new Thread[threads];
			for (int i = 0; i < threads; i++) {
				Object monitor = new Object();
				started[i] = Thread.ofVirtual().start(() -> {
					synchronized (monitor) {
						sleep(50);
					}
				});
			}
			for (Thread thread : started) {
				thread.join();
			}
			events.stop();
		}
		System.out.println("pinned=" + pinned.get() + " threads=" + threads + " jdk=" + Runtime.version());
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
