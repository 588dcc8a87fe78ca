#ifndef CTASKCREATION_H
#define CTASKCREATION_H

#include <stdint.h>

/// A task executor as the runtime passes one: what `UnownedTaskExecutor` holds.
typedef struct {
  uintptr_t identity;
  uintptr_t implementation;
} CTaskCreationExecutor;

/// Asked, on the thread that creates a task while a scope is open, which task executor the
/// new task should prefer. Returns nonzero, with `executor` set, to give it one.
typedef int (*_Nonnull CTaskCreationChooser)(CTaskCreationExecutor *_Nonnull executor);

/// Told, on the thread that creates it, of each task created while a scope is open and an
/// observer is set: the new task's address and the name it was given, or `NULL`.
typedef void (*CTaskCreationObserver)(
    const void *_Nonnull task, const char *_Nullable name);

/// Whether tasks the program creates pass through here: on Linux, where this module's own
/// `swift_task_create` stands in front of the runtime's for the code linked with it.
int ctaskcreation_is_available(void);

/// Sets the function asked for each task created while at least one scope is open.
void ctaskcreation_set_chooser(CTaskCreationChooser chooser);

/// Sets or clears the function told of each task created while a scope is open; set only
/// while a schedule is told to a person, so other creations pay nothing for it.
void ctaskcreation_set_observer(CTaskCreationObserver _Nullable observer);

/// Counts the scopes open: while none is, a task's creation costs one relaxed load here.
void ctaskcreation_scope_opened(void);
void ctaskcreation_scope_closed(void);

#endif
