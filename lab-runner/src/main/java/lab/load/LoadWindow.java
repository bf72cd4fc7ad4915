package lab.load;

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

}
