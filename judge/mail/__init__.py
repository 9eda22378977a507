"""Mail in and out: inbound listeners, MIME normalisation, the loop guard and the sender."""
