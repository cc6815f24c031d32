// Loaded by /rendered/blocked-script.html; robots.txt disallows /private/ for Applebot.
document.documentElement.setAttribute("data-rendered", "yes");
