"""The chapters as stored: the chapter list, the stored outputs, the live-widget cells."""
