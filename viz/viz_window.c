/* viz_window.c: the visualizer in an SDL2 window -- the event loop, keys
 * and mouse (play, step, scrub, zoom, select), and the --script runner that
 * feeds the same loop synthetic SDL events so tests can drive the real
 * window (under Xvfb).  SDL state stays in this file and viz_headless.c. */
#include "viz_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the script ------------------------------------------------------------- */

typedef struct {
    char *text;               /* a copy of the script, split in place */
    char *next;               /* the next command, NULL at the end */
    Uint32 resume;            /* ticks when the next command may run */
    Uint32 event;             /* SDL user event type for print and state */
} Script;

enum { SCRIPT_PRINT = 1, SCRIPT_STATE = 2 };

static SDL_Keycode key_code(const char *name)
{
    static const struct { const char *name; SDL_Keycode k; } keys[] = {
        {"space", SDLK_SPACE}, {"right", SDLK_RIGHT}, {"left", SDLK_LEFT}, {"period", SDLK_PERIOD},
        {"comma", SDLK_COMMA}, {"plus", SDLK_PLUS}, {"minus", SDLK_MINUS}, {"home", SDLK_HOME},
        {"end", SDLK_END}, {"h", SDLK_h}, {"q", SDLK_q}, {"c", SDLK_c}, {"escape", SDLK_ESCAPE},
        {"1", SDLK_1}, {"2", SDLK_2}, {"3", SDLK_3}, {"4", SDLK_4}, {"5", SDLK_5},
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strcmp(name, keys[i].name))
            return keys[i].k;
    return SDLK_UNKNOWN;
}

static void push_button(int x, int y, bool down)
{
    SDL_Event e = {0};
    e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.button.clicks = 1;
    e.button.x = x;
    e.button.y = y;
    SDL_PushEvent(&e);
}

static void push_motion(int x, int y)
{
    SDL_Event e = {0};
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    SDL_PushEvent(&e);
}

/* Check every command before the window opens: false with msg. */
static bool script_check(const char *text, char *msg, size_t cap)
{
    char *copy = strdup(text);
    if (!copy)
        return false;
    bool ok = true;
    for (char *save = NULL, *cmd = strtok_r(copy, ";\n", &save); cmd && ok; cmd = strtok_r(NULL, ";\n", &save)) {
        char word[16] = "", arg[32] = "";
        int a, b, c2, d, n = sscanf(cmd, " %15s", word);
        if (n < 1)
            continue;
        if (!strcmp(word, "key"))
            ok = sscanf(cmd, " key %31s", arg) == 1 && key_code(arg) != SDLK_UNKNOWN;
        else if (!strcmp(word, "click"))
            ok = sscanf(cmd, " click %d %d", &a, &b) == 2;
        else if (!strcmp(word, "drag"))
            ok = sscanf(cmd, " drag %d %d %d %d", &a, &b, &c2, &d) == 4;
        else if (!strcmp(word, "wheel"))
            ok = sscanf(cmd, " wheel %d %d %d", &a, &b, &c2) == 3;
        else if (!strcmp(word, "wait"))
            ok = sscanf(cmd, " wait %d", &a) == 1 && a >= 0;
        else
            ok = !strcmp(word, "print") || !strcmp(word, "state");
        if (!ok)
            snprintf(msg, cap, "--script: cannot read '%s' (commands: key NAME, click X Y, drag X0 Y0 X1 Y1, "
                               "wheel N X Y, wait MS, print TEXT, state; keys: space right left period comma plus minus "
                               "home end h c q escape 1-5)", cmd);
    }
    free(copy);
    return ok;
}

/* Run the script's next command when its time has come: one a frame, so
 * that a click lands on what the commands before it put on screen. */
static void script_step(Script *sc)
{
    while (sc->next && SDL_TICKS_PASSED(SDL_GetTicks(), sc->resume)) {
        char *cmd = sc->next, *end = cmd + strcspn(cmd, ";\n");
        sc->next = *end ? end + 1 : NULL;
        *end = 0;
        char word[16] = "", arg[32] = "";
        int a = 0, b = 0, c = 0, d = 0;
        if (sscanf(cmd, " %15s", word) < 1)
            continue;
        if (!strcmp(word, "key") && sscanf(cmd, " key %31s", arg) == 1) {
            SDL_Event e = {0};
            e.type = SDL_KEYDOWN;
            e.key.state = SDL_PRESSED;
            e.key.keysym.sym = key_code(arg);
            SDL_PushEvent(&e);
        } else if (!strcmp(word, "click") && sscanf(cmd, " click %d %d", &a, &b) == 2) {
            push_motion(a, b);
            push_button(a, b, true);
            push_button(a, b, false);
        } else if (!strcmp(word, "drag") && sscanf(cmd, " drag %d %d %d %d", &a, &b, &c, &d) == 4) {
            push_motion(a, b);
            push_button(a, b, true);
            for (int i = 1; i <= 8; i++)
                push_motion(a + (c - a) * i / 8, b + (d - b) * i / 8);
            push_button(c, d, false);
        } else if (!strcmp(word, "wheel") && sscanf(cmd, " wheel %d %d %d", &a, &b, &c) == 3) {
            push_motion(b, c);
            SDL_Event e = {0};
            e.type = SDL_MOUSEWHEEL;
            e.wheel.y = a;
            SDL_PushEvent(&e);
        } else if (!strcmp(word, "wait") && sscanf(cmd, " wait %d", &a) == 1) {
            sc->resume = SDL_GetTicks() + (Uint32)a;
            return;
        } else if (!strcmp(word, "print") || !strcmp(word, "state")) {
            /* queued behind the events pushed before it, so it sees their effect */
            const char *p = cmd + strspn(cmd, " \t") + 5;
            SDL_Event e = {0};
            e.type = sc->event;
            e.user.code = word[0] == 'p' ? SCRIPT_PRINT : SCRIPT_STATE;
            e.user.data1 = word[0] == 'p' ? strdup(p + strspn(p, " \t")) : NULL;
            SDL_PushEvent(&e);
        }
        return;
    }
}

/* ---- input ------------------------------------------------------------------ */

typedef struct {
    VizState *s;
    VizCanvas *c;
    bool dragging, quit;
    int mouse_x, mouse_y;
    Uint32 script_event;
} Ui;

/* `state` of a script: one line a test can check. */
static void print_state(const VizState *s)
{
    printf("state cycle=%llu view=%s sm=%d block=%lld warp=%d window=%llu-%llu playing=%d help=%d speed=%.0f\n",
           (unsigned long long)s->cycle, viz_view_name(s->view), s->sel_sm,
           s->sel_block == VIZ_NONE ? -1LL : (long long)s->sel_block, s->sel_warp, (unsigned long long)s->t0,
           (unsigned long long)s->t1, s->playing, s->help, s->speed);
    fflush(stdout);
}

static const VizHit *hit_at(const VizCanvas *c, int x, int y)
{
    for (int i = c->nhits - 1; i >= 0; i--) { /* drawn last = on top */
        const VizHit *h = &c->hits[i];
        if (x >= h->x && x < h->x + h->w && y >= h->y && y < h->y + h->h)
            return h;
    }
    return NULL;
}

static void click(Ui *u, int x, int y, int clicks)
{
    VizState *s = u->s;
    const VizHit *h = hit_at(u->c, x, y);
    if (!h)
        return;
    switch (h->kind) {
    case VIZ_HIT_AXIS:
        u->dragging = true;
        s->playing = false;
        viz_state_seek(s, viz_frame_axis_cycle(u->c, s, x));
        break;
    case VIZ_HIT_TAB:
        s->view = (int)h->id;
        break;
    case VIZ_HIT_SM:
        s->sel_sm = (int)h->id;
        s->sel_block = VIZ_NONE;
        s->sel_warp = -1;
        if (clicks >= 2)
            s->view = VIZ_VIEW_SM;
        break;
    case VIZ_HIT_BLOCK:
        s->sel_block = h->id;
        s->sel_sm = (int)h->aux;
        s->sel_warp = -1;
        if (clicks >= 2)
            s->view = VIZ_VIEW_SM;
        break;
    case VIZ_HIT_WARP:
    case VIZ_HIT_SECTOR:
        s->sel_warp = s->sel_warp == (int)h->id ? -1 : (int)h->id;
        if (s->sel_block == VIZ_NONE) /* pin the block the warp belongs to */
            s->sel_block = viz_state_block(s, h->trace);
        break;
    case VIZ_HIT_ADDR:
        s->sel_addr = (uint32_t)h->id;
        break;
    case VIZ_HIT_QUEUE: { /* jump to the moment that update was applied */
        const VizModel *m = s->m[h->trace];
        const VizAtomicAddr *a = viz_model_atomic_addr(m, s->sel_addr);
        const VizAtomic *up = a && h->id < a->n ? viz_model_atomic(m, a->first + (uint32_t)h->id) : NULL;
        if (up) {
            s->playing = false;
            viz_state_seek(s, viz_model_event_cycle(m, up->pos));
        }
        break;
    }
    default:
        break;
    }
}

static void key(Ui *u, SDL_Keycode k)
{
    VizState *s = u->s;
    switch (k) {
    case SDLK_q: case SDLK_ESCAPE: u->quit = true; break;
    case SDLK_SPACE:
        if (!s->playing && s->cycle >= s->end)
            viz_state_seek(s, 0);
        s->playing = !s->playing;
        s->carry = 0;
        break;
    case SDLK_RIGHT: s->playing = false; viz_state_step_event(s, 1); break;
    case SDLK_LEFT: s->playing = false; viz_state_step_event(s, -1); break;
    case SDLK_PERIOD: s->playing = false; viz_state_step_cycle(s, 1); break;
    case SDLK_COMMA: s->playing = false; viz_state_step_cycle(s, -1); break;
    case SDLK_HOME: viz_state_seek(s, 0); break;
    case SDLK_END: viz_state_seek(s, s->end); break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS: if (s->speed < 1e12) s->speed *= 2; break;
    case SDLK_MINUS: case SDLK_KP_MINUS: if (s->speed > 1) s->speed /= 2; break;
    case SDLK_1: case SDLK_2: case SDLK_3: case SDLK_4: case SDLK_5: s->view = (int)(k - SDLK_1); break;
    case SDLK_h: s->help = !s->help; break;
    case SDLK_c: s->sel_sm = -1; s->sel_block = VIZ_NONE; s->sel_warp = -1; s->sel_addr = 0; break;
    default: break;
    }
}

static void handle(Ui *u, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT: u->quit = true; break;
    case SDL_KEYDOWN: key(u, e->key.keysym.sym); break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT)
            click(u, e->button.x, e->button.y, e->button.clicks);
        break;
    case SDL_MOUSEBUTTONUP: u->dragging = false; break;
    case SDL_MOUSEMOTION:
        u->mouse_x = e->motion.x;
        u->mouse_y = e->motion.y;
        if (u->dragging)
            viz_state_seek(u->s, viz_frame_axis_cycle(u->c, u->s, e->motion.x));
        break;
    case SDL_MOUSEWHEEL: {
        VizBox a = viz_frame_axis(u->c);
        uint64_t about = u->mouse_x >= a.x && u->mouse_x < a.x + a.w && u->mouse_y >= a.y - 8 &&
                                 u->mouse_y < a.y + a.h + 8
                             ? viz_frame_axis_cycle(u->c, u->s, u->mouse_x)
                             : u->s->cycle;
        int dy = e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -e->wheel.y : e->wheel.y;
        for (int i = 0; i < (dy > 0 ? dy : -dy); i++)
            viz_state_zoom(u->s, dy > 0 ? 0.8 : 1.25, about);
        break;
    }
    default:
        if (e->type == u->script_event && u->script_event != (Uint32)-1) {
            if (e->user.code == SCRIPT_PRINT) {
                printf("%s\n", e->user.data1 ? (const char *)e->user.data1 : "");
                fflush(stdout);
                free(e->user.data1);
            } else {
                print_state(u->s);
            }
        }
        break;
    }
}

/* ---- the window ------------------------------------------------------------- */

static bool display_present(void)
{
    const char *vars[] = {"DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return true;
    }
    return false;
}

int viz_window_opts(const VizOptions *o, char *msg, size_t cap)
{
    SimError err;
    sim_error_clear(&err);
    if (o->script && !script_check(o->script, msg, cap))
        return 2;
    VizState *s = calloc(1, sizeof *s);
    VizCanvas *c = calloc(1, sizeof *c);
    Script sc = {0};
    SDL_Window *win = NULL;
    SDL_Renderer *r = NULL;
    int rc = 2;
    bool video = false, ttf = false, canvas = false, state = false;
    if (!s || !c) {
        snprintf(msg, cap, "out of memory");
        goto done;
    }
    if (!viz_state_open(s, o, &err)) {
        snprintf(msg, cap, "%s: %s", err.file[0] ? err.file : "trace", err.msg);
        goto done;
    }
    state = true;
    /* With no display SDL falls back to its offscreen driver and the window
     * exists nowhere: an invisible, endless session.  Refuse it instead, unless
     * the caller chose a driver on purpose (SDL_VIDEODRIVER). */
    if (!display_present()) {
        snprintf(msg, cap, "no display (set DISPLAY, or use --png OUT.png)");
        goto done;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(msg, cap, "no display available (SDL: %s); render a frame without one with --png OUT.png",
                 SDL_GetError());
        goto done;
    }
    video = true;
    if (TTF_Init() != 0) {
        snprintf(msg, cap, "SDL_ttf: %s", TTF_GetError());
        goto done;
    }
    ttf = true;
    int w = o->width ? o->width : 1280, h = o->height ? o->height : 800;
    SDL_Rect usable;
    if (!o->width && SDL_GetDisplayUsableBounds(0, &usable) == 0) {
        w = w < usable.w ? w : usable.w;
        h = h < usable.h ? h : usable.h;
    }
    char title[300];
    snprintf(title, sizeof title, "warpsim viz - %s%s%s", o->paths[0], o->npaths > 1 ? " | " : "",
             o->npaths > 1 ? o->paths[1] : "");
    win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, SDL_WINDOW_RESIZABLE);
    if (!win) {
        snprintf(msg, cap, "cannot open a window (SDL: %s); render a frame with --png OUT.png", SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(win, 640, 480);
    r = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!r)
        r = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    if (!r) {
        snprintf(msg, cap, "cannot draw in the window (SDL: %s)", SDL_GetError());
        goto done;
    }
    SDL_GetRendererOutputSize(r, &w, &h);
    if (!viz_canvas_open(c, r, w, h, o->font_path, msg, cap))
        goto done;
    canvas = true;
    Ui u = {s, c, false, false, 0, 0, (Uint32)-1};
    if (o->script) {
        sc.text = strdup(o->script);
        sc.next = sc.text;
        sc.resume = SDL_GetTicks();
        sc.event = u.script_event = SDL_RegisterEvents(1);
        if (sc.event == (Uint32)-1)
            sc.next = NULL;
    }
    Uint32 last = SDL_GetTicks();
    bool dirty = true;
    while (!u.quit) {
        SDL_Event e;
        bool busy = s->playing || (sc.next != NULL);
        if (SDL_WaitEventTimeout(&e, busy ? 15 : dirty ? 1 : 200)) {
            handle(&u, &e);
            while (!u.quit && SDL_PollEvent(&e))
                handle(&u, &e);
            dirty = true;
        }
        script_step(&sc);
        Uint32 now = SDL_GetTicks();
        if (s->playing) {
            viz_state_play(s, (now - last) / 1000.0);
            dirty = true;
        }
        last = now;
        int ow, oh;
        if (SDL_GetRendererOutputSize(r, &ow, &oh) == 0 && (ow != c->w || oh != c->h)) {
            c->w = ow;
            c->h = oh;
            dirty = true;
        }
        if (dirty && !u.quit) {
            viz_frame_draw(c, s);
            SDL_RenderPresent(r);
            dirty = false;
        }
    }
    rc = 0;
done:
    free(sc.text);
    if (canvas)
        viz_canvas_close(c);
    if (r)
        SDL_DestroyRenderer(r);
    if (win)
        SDL_DestroyWindow(win);
    if (ttf)
        TTF_Quit();
    if (video)
        SDL_Quit();
    if (state)
        viz_state_close(s);
    free(s);
    free(c);
    return rc;
}

int viz_window(const char *const *paths, int n, uint64_t at_cycle, int view, char *msg, size_t cap)
{
    VizOptions o;
    viz_options_init(&o);
    if (n < 1 || n > 2) {
        snprintf(msg, cap, "one or two traces, not %d", n);
        return 2;
    }
    for (int i = 0; i < n; i++)
        o.paths[i] = paths[i];
    o.npaths = n;
    o.at_cycle = at_cycle;
    o.view = view;
    return viz_window_opts(&o, msg, cap);
}
