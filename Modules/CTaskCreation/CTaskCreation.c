// A task a scope's code creates with `Task { }` or `Task.detached { }` gets no task executor
// preference from the runtime, and a task without one may switch from actor to actor, or from
// an actor to the pool, inside one job: the runtime runs such a hop on the same thread when
// the actor it goes to is idle, so no other job can come between the two sides of the
// `await`. On a pool of threads another thread could. Giving every task of a scope the
// scope's executor as its preference makes the runtime enqueue at every hop instead, so each
// becomes a job the scope chooses among; hops that do not change executor stay inline, as the
// runtime runs them. See docs/suspension-points.md.
//
// A build that defines TP_NO_TASK_CREATION_HOOK compiles only the stubs at the end, as every
// platform but 64-bit Linux does.
//
// The runtime offers no hook for task creation, so on Linux this file defines
// `swift_task_create` itself: the program's calls bind to it when it is linked, and it calls
// the runtime's through `dlsym(RTLD_NEXT, …)`, adding an option record when a scope asks.
// The records' layout is the runtime's ABI (swift/ABI/TaskOptions.h): compiled code builds
// them on its stack for every `Task(executorPreference:)`.
#define _GNU_SOURCE
#include "CTaskCreation.h"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__)) && !defined(TP_NO_TASK_CREATION_HOOK)
#include <dlfcn.h>
#include <stddef.h>

typedef struct TaskOptionRecord {
  size_t flags;
  struct TaskOptionRecord *parent;
} TaskOptionRecord;

typedef struct {
  TaskOptionRecord base;
  CTaskCreationExecutor executor;
} TaskExecutorOptionRecord;

// A name given with `Task(name:)`: the runtime copies the string when it makes the task.
typedef struct {
  TaskOptionRecord base;
  const char *name;
} TaskNameOptionRecord;

typedef struct {
  void *task;
  void *context;
} TaskAndContext;

typedef __attribute__((swiftcall)) TaskAndContext (*TaskCreate)(
    size_t flags, TaskOptionRecord *options, const void *resultType, void *entry,
    void *context);

// TaskOptionRecordKind.
enum {
  kindTaskGroup = 1,
  kindAsyncLet = 2,
  kindAsyncLetWithBuffer = 3,
  kindTaskExecutorUnowned = 5,
  kindTaskExecutorOwned = 6,
  kindTaskName = 7,
  kindRunInline = 255,
};

static int openScopes;
static CTaskCreationChooser chooser;
static CTaskCreationObserver observer;

int ctaskcreation_is_available(void) { return 1; }

void ctaskcreation_set_chooser(CTaskCreationChooser newChooser) {
  __atomic_store_n(&chooser, newChooser, __ATOMIC_RELEASE);
}

void ctaskcreation_set_observer(CTaskCreationObserver newObserver) {
  __atomic_store_n(&observer, newObserver, __ATOMIC_RELEASE);
}

void ctaskcreation_scope_opened(void) { __atomic_add_fetch(&openScopes, 1, __ATOMIC_ACQ_REL); }

void ctaskcreation_scope_closed(void) { __atomic_sub_fetch(&openScopes, 1, __ATOMIC_ACQ_REL); }

static TaskCreate runtimeCreate(void) {
  static TaskCreate create;
  TaskCreate found = __atomic_load_n(&create, __ATOMIC_ACQUIRE);
  if (!found) {
    found = (TaskCreate)dlsym(RTLD_NEXT, "swift_task_create");
    __atomic_store_n(&create, found, __ATOMIC_RELEASE);
  }
  return found;
}

/// Whether the runtime should choose the new task's executor as it always does: a child task
/// (a group's, an `async let`) inherits its parent's preference, and a task made with a
/// preference keeps it.
static int keepsItsOwn(TaskOptionRecord *options) {
  for (TaskOptionRecord *record = options; record; record = record->parent) {
    switch ((unsigned)(record->flags & 0xFF)) {
    case kindTaskGroup:
    case kindAsyncLet:
    case kindAsyncLetWithBuffer:
    case kindTaskExecutorUnowned:
    case kindTaskExecutorOwned:
    case kindRunInline:
      return 1;
    default:
      break;
    }
  }
  return 0;
}

static const char *nameIn(TaskOptionRecord *options) {
  for (TaskOptionRecord *record = options; record; record = record->parent) {
    if ((record->flags & 0xFF) == kindTaskName) return ((TaskNameOptionRecord *)record)->name;
  }
  return NULL;
}

static TaskAndContext observed(TaskAndContext made, TaskOptionRecord *options) {
  CTaskCreationObserver tell = __atomic_load_n(&observer, __ATOMIC_ACQUIRE);
  if (tell && made.task) tell(made.task, nameIn(options));
  return made;
}

__attribute__((swiftcall)) TaskAndContext swift_task_create(
    size_t flags, TaskOptionRecord *options, const void *resultType, void *entry,
    void *context) {
  TaskCreate create = runtimeCreate();
  if (__atomic_load_n(&openScopes, __ATOMIC_RELAXED) == 0) {
    return create(flags, options, resultType, entry, context);
  }
  if (!keepsItsOwn(options)) {
    CTaskCreationChooser choose = __atomic_load_n(&chooser, __ATOMIC_ACQUIRE);
    TaskExecutorOptionRecord record = {{kindTaskExecutorUnowned, options}, {0, 0}};
    if (choose && choose(&record.executor)) {
      return observed(create(flags, &record.base, resultType, entry, context), options);
    }
  }
  return observed(create(flags, options, resultType, entry, context), options);
}
#else
int ctaskcreation_is_available(void) { return 0; }
void ctaskcreation_set_chooser(CTaskCreationChooser newChooser) { (void)newChooser; }
void ctaskcreation_set_observer(CTaskCreationObserver newObserver) { (void)newObserver; }
void ctaskcreation_scope_opened(void) {}
void ctaskcreation_scope_closed(void) {}
#endif
