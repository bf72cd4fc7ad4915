package lab.load;

import java.util.Locale;

/**
 * When the injector loaded the service, in epoch milliseconds: {@code start} of the ramp, {@code steadyStart} after
 * it, {@code end} of the hold. Only [steadyStart, end] is measured.
 */
public record LoadWindow(long start, long steadyStart, long end) {

	public boolean contains(long epochMs) {
		return epochMs >= this.steadyStart && epochMs <= this.end;
	}

	public double steadySeconds() {
		return (this.end - this.steadyStart) / 1000.0;
	}

	/** " at +12 s" from the start of the level's load, or nothing without a window. */
	public static String at(LoadWindow window, long epochMs) {
		return (window == null) ? "" : String.format(Locale.ROOT, " at +%d s", (epochMs - window.start()) / 1000);
	}

}
