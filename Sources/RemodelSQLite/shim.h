#ifndef REMODEL_SQLITE_SHIM_H
#define REMODEL_SQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import: expose it as a function.
static inline sqlite3_destructor_type remodel_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic; wrap the integer form Remodel uses.
static inline int remodel_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif
