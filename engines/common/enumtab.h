/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The enum tables of perfpack's engines and model: each enum's values are
 * one X-macro table of rows X(id, name, help), from which the enum, the
 * name lists, fio's posval (PP_POSVAL, engines/common/pp.h) and the
 * option's default are expanded, so each name is written once.
 *
 * The first row of a table is its default: the enumerator 0 and the
 * string PP_ENUM_DEFAULT() gives an option's .def.
 *
 * No fio here: the model (engines/sim/) includes this through coop's pool.h.
 */
#ifndef PERFPACK_ENGINES_COMMON_ENUMTAB_H
#define PERFPACK_ENGINES_COMMON_ENUMTAB_H

/* enum e { TABLE(PP_ENUM_ID) }; */
#define PP_ENUM_ID(id, name, help) id,

/* The first of a comma-separated list (a trailing comma is fine). */
#define PP_FIRST_(first, ...) first
#define PP_FIRST(...) PP_FIRST_(__VA_ARGS__)

/* The name of TABLE's first row, its default: .def = PP_ENUM_DEFAULT(TABLE). */
#define PP_ENUM_NAME_(id, name, help) name,
#define PP_ENUM_DEFAULT(TABLE) PP_FIRST(TABLE(PP_ENUM_NAME_))

#endif
