package dev.slotpool.sample.load;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.time.Duration;
import java.util.Locale;

/**
 * {@code /load}: the load generator's status, and (for ADMIN, with a CSRF token) a form to start, resize or stop
 * it. A change redirects back to the page; bad input answers 400 with the page and the reason.
 */
@Controller
@RequestMapping("/load")
class LoadController {

    private final LoadGenerator generator;

    LoadController(LoadGenerator generator) {
        this.generator = generator;
    }

    @GetMapping
    String page(Model model, HttpServletRequest request) {
        LoadStatus status = generator.status();
        model.addAttribute("status", status);
        model.addAttribute("admin", request.isUserInRole("ADMIN"));
        model.addAttribute("threads", status.running() ? status.threads() : 8);
        model.addAttribute("currentThinkTime", format(status.thinkTime()));
        model.addAttribute("thinkTime", format(status.thinkTime()));
        return "load";
    }

    @PostMapping
    String change(@RequestParam String action, @RequestParam(required = false) String threads,
                  @RequestParam(required = false) String thinkTime, Model model, HttpServletRequest request,
                  HttpServletResponse response, RedirectAttributes redirect) {
        String a = action.trim().toLowerCase(Locale.ROOT);
        try {
            switch (a) {
                case "start", "resize" -> {
                    LoadSettings s = new LoadSettings(parseThreads(threads), parseThinkTime(thinkTime));
                    generator.apply(s);
                    redirect.addFlashAttribute("message", "Running " + s.threads() + " threads, think time "
                            + format(s.thinkTime()) + ".");
                }
                case "stop" -> {
                    generator.stopWorkers();
                    redirect.addFlashAttribute("message", "Stopped.");
                }
                default -> throw new IllegalArgumentException("unknown action '" + action + "' (allowed: start, resize, stop)");
            }
        } catch (IllegalArgumentException e) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            model.addAttribute("error", e.getMessage());
            String page = page(model, request);
            model.addAttribute("threads", threads);
            model.addAttribute("thinkTime", thinkTime);
            return page;
        }
        return "redirect:/load";
    }

    private static int parseThreads(String threads) {
        try {
            return Integer.parseInt(threads == null ? "" : threads.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("threads must be a whole number (was '" + threads + "')");
        }
    }

    private static Duration parseThinkTime(String thinkTime) {
        try {
            return DurationStyle.detectAndParse(thinkTime == null ? "" : thinkTime.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("think time must be a duration such as 20ms or 1s (was '" + thinkTime + "')");
        }
    }

    private static String format(Duration d) {
        return DurationStyle.SIMPLE.print(d);
    }
}
