"""The phone's seat: the game in a phone's browser, served by the hosting laptop.

``server`` serves the page's own files (``static/``: plain HTML, CSS and JavaScript,
no build step, nothing fetched elsewhere) and a WebSocket per phone on a socket the
caller hands it; ``phone`` seats each phone as an ordinary client of the table
(``net.client``) and sends the page what to show, built by ``screen`` (and ``board``,
where each place is drawn) from the client's table view in the phone's language;
``choices`` reads what a page may ask.  The browser and the server exchange what
protocol/WEB.md says.  No rules run here or in the page, and nothing here draws on a
terminal (the QR code of the address is the terminal's: ``tui.qr``).
"""
