package lab.app;

import org.junit.jupiter.api.Tag;

/** The database set's contract ({@link lab.db.AccountContractTests}) against this service and a real PostgreSQL. */
@Tag("slow") // not in ./lab test --fast: starts PostgreSQL
class AccountContractTests extends lab.db.AccountContractTests {

	@Override
	protected String module() {
		return "app-db-webflux-r2dbc";
	}

	@Override
	protected String poolMaxMeter() {
		return "r2dbc_pool_max_allocated_connections";
	}

	@Override
	protected String poolInUseMeter() {
		return "r2dbc_pool_acquired_connections";
	}

}
