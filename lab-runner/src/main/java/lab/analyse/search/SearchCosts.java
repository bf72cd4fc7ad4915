package lab.analyse.search;

/**
 * What a search's steps cost on this host, as measured in the run: the budget and the sizing sentence read them.
 *
 * @param startSeconds the median time to start, admit and warm a JVM
 * @param probeSeconds the median probe, its idle check included
 */
public record SearchCosts(double startSeconds, double probeSeconds) {
}
