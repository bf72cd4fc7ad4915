package lab.db;

/**
 * One row of the {@code account} table, the answer of {@code GET /account/{id}} in all four services of the database
 * set: {@code {"id":42,"owner":"owner-42","balanceCents":332598}}.
 *
 * @param id its primary key, 1 to {@link AccountQuery#ROWS}
 * @param owner {@code owner-<id>}
 * @param balanceCents {@code (id * 7919) % 1000003}
 */
public record Account(long id, String owner, long balanceCents) {

	/** The row the table holds for {@code id} (account.sql computes it the same way). */
	public static Account expected(long id) {
		return new Account(id, "owner-" + id, (id * 7919) % 1000003);
	}

}
