package lab.launch;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM as a request to stop, not as the JVM's shutdown: the first signal records when it
 * came and stops every child by PID (SIGTERM, then SIGKILL after a grace period), so whatever the runner waits on
 * returns; the runner then marks the level INTERRUPTED, renders the partial report on its own thread and exits 130.
 * A second signal exits at once (children stopped first). The JVM's default handler, which runs shutdown hooks
 * in parallel with the runner, is replaced while a run is on.
 */
public final class Interruption {

	public static final int EXIT_CODE = 130;

	private static final AtomicLong requestedAt = new AtomicLong();

	private Interruption() {
	}

	public static void install(PrintStream out) {
		SignalHandler handler = signal -> {
			if (!requestedAt.compareAndSet(0, System.currentTimeMillis())) {
				out.println("lab: stopping now, without the report (./lab report renders it from the raw files)");
				Children.shutDown();
				Runtime.getRuntime().halt(EXIT_CODE);
			}
			out.println("lab: SIG" + signal.getName() + ": stopping the services and the injector, then writing the partial report"
					+ " (once more to quit at once)");
			Children.shutDown();
		};
		for (String name : new String[] { "INT", "TERM" }) {
			try {
				// A JVM started with the signal ignored (a background job of a non-interactive shell inherits SIGINT
				// ignored) keeps it ignored and answers SIG_IGN instead of installing the handler.
				if (Signal.handle(new Signal(name), handler) == SignalHandler.SIG_IGN) {
					out.println("lab: SIG" + name + " is ignored in this process (started in the background); stop the run with SIG"
							+ (name.equals("INT") ? "TERM" : "INT"));
				}
			}
			catch (IllegalArgumentException ex) {
				out.println("lab: SIG" + name + " cannot be handled here (" + ex.getMessage() + "); stop the run with the other signal");
			}
		}
	}

	private static volatile boolean stopped;

	/** Whether the run is to stop: the person asked, or the run itself cannot go on ({@link #stopRun}: a full disk). */
	public static boolean requested() {
		return requestedAt.get() != 0 || stopped;
	}

	/** Whether the person asked the run to stop (a signal), not the run itself. */
	public static boolean byPerson() {
		return requestedAt.get() != 0;
	}

	/** The run stops for a reason of its own ({@link Storage}): every wait returns as on Ctrl-C, no level is blamed on the person. */
	static void stopRun() {
		stopped = true;
	}

	/** A new run in the same JVM (the tests' runs) starts with no stop of its own pending. */
	static void clearStop() {
		stopped = false;
	}

	/** When they asked (epoch ms), 0 if they did not. */
	public static long requestedAtMs() {
		return requestedAt.get();
	}

}
