// What Swift needs from ncursesw and cannot import directly: macros that expand to
// expressions, and globals that Swift 6 rejects as shared mutable state.
#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_color_pair(short pair) { return COLOR_PAIR(pair); }
static inline int cn_key_f(int n) { return KEY_F(n); }
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_getmaxy(WINDOW *window) {
  int y, x;
  getmaxyx(window, y, x);
  (void)x;
  return y;
}
static inline int cn_getmaxx(WINDOW *window) {
  int y, x;
  getmaxyx(window, y, x);
  (void)y;
  return x;
}
/// The cells the C library gives `c` in the current locale, as ncurses counts them.
static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }
static inline int cn_getcurx(WINDOW *window) { return getcurx(window); }
static inline int cn_set_escdelay(int milliseconds) { return set_escdelay(milliseconds); }

/// Whether the current terminal has the string capability `name` (such as "cup").
static inline int cn_has_string_capability(const char *name) {
  const char *value = tigetstr(name);
  return value != NULL && value != (const char *)-1;
}

/// Writes the current terminal's string capability `name` (such as "clear"), if it has
/// one; usable after endwin.
static inline void cn_put_capability(const char *name) {
  const char *value = tigetstr(name);
  if (value != NULL && value != (const char *)-1) putp(value);
  fflush(stdout);
}

/// The size the kernel reports for the terminal on `fd`; zero when it is not a terminal.
static inline struct winsize cn_window_size(int fd) {
  struct winsize size = {0, 0, 0, 0};
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) {
    size.ws_row = 0;
    size.ws_col = 0;
  }
  return size;
}

/// Bytes waiting to be read on `fd`, or -1; `ioctl` is variadic, so Swift cannot call it.
static inline int cn_bytes_available(int fd) {
  int count = 0;
  if (ioctl(fd, FIONREAD, &count) != 0) return -1;
  return count;
}

#endif
