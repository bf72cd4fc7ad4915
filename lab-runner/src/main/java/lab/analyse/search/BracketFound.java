package lab.analyse.search;

/**
 * What a bracket found.
 *
 * @param capacity the highest load that met the target (0: none did, down to the smallest probed)
 * @param firstMissed the lowest load that did not (0: none, up to the planned maximum)
 * @param atLeast the capacity is a lower bound: the search could not go higher ({@code why})
 * @param why in words: the resolution reached, the planned maximum, a load the harness could not measure
 */
public record BracketFound(int capacity, int firstMissed, boolean atLeast, String why) {
}
